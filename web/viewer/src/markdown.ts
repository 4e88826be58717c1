/**
 * Memory bodies as HTML: marked with raw HTML escaped (a memory is text, not markup), only
 * http(s), mailto and in-page links, and `[[id]]` wikilinks turned into links to the memory.
 */
import { Marked } from 'marked';

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const marked = new Marked({
  gfm: true,
  renderer: {
    html: ({ text }) => escape(text),
    link({ href, text }) {
      const safe = /^(https?:|mailto:|#)/i.test(href) ? href : '#';
      return `<a href="${escape(safe)}"${safe.startsWith('#') ? '' : ' rel="noopener noreferrer" target="_blank"'}>${text}</a>`;
    },
    image: ({ text }) => escape(`[image: ${text}]`),
  },
});

export function renderMarkdown(body: string): string {
  const linked = body.replace(/\[\[([a-z0-9][a-z0-9-]*)\]\]/g, (_m, id: string) => `[${id}](#/memory/${id})`);
  return marked.parse(linked, { async: false });
}
