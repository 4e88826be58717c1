/** What every view is: a custom element that loads its data and re-loads when files change. */
import { errorBox, h } from '../dom.js';

export abstract class View extends HTMLElement {
  /** The route's argument (`#/memory/<arg>`) and query (`#/search?q=…`). */
  arg = '';
  params = new URLSearchParams();
  abstract readonly heading: string;

  protected abstract load(): Promise<void>;

  connectedCallback(): void {
    void this.refresh();
  }

  async refresh(): Promise<void> {
    this.setAttribute('aria-busy', 'true');
    try {
      await this.load();
    } catch (err) {
      this.replaceChildren(h('h2', {}, this.heading), errorBox(err));
    } finally {
      this.removeAttribute('aria-busy');
    }
  }

  /** Files changed on disk: by default, load again. */
  filesChanged(): void {
    void this.refresh();
  }
}
