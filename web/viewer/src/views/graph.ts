import cytoscape, { type Core } from 'cytoscape';
import { api } from '../api.js';
import { fmt, h, memoryLink, table } from '../dom.js';
import { View } from './view.js';

interface GraphNode {
  id: string;
  type: string;
  summary: string;
  status: string;
  centrality: number;
}
interface GraphEdge {
  source: string;
  target: string;
  relation: string;
  strength: number;
  status: string;
}

/** Node colours by type: distinct hues, each dark enough for white labels' outline to read. */
const COLORS: Record<string, string> = {
  architecture: '#1f5fa8',
  decision: '#6b3fa0',
  rejected: '#a8321f',
  pattern: '#1f7a4a',
  gotcha: '#a85a00',
  preference: '#5a5a5a',
  plan: '#00707a',
  progress: '#3f6b00',
  context: '#7a4a2a',
  code_description: '#2a4a7a',
  code: '#333333',
};

/** Most nodes drawn at once; beyond it, the most central ones (the rest are in the table). */
const MAX_NODES = 600;

/** The graph explorer: Cytoscape.js (bundled), click or Enter on a node opens the memory. */
export class GraphView extends View {
  heading = 'Graph';
  cy: Core | undefined;

  protected async load(): Promise<void> {
    const g = await api<{ nodes: GraphNode[]; edges: GraphEdge[]; isolated: number }>('/edges');
    const shown = [...g.nodes].sort((a, b) => b.centrality - a.centrality || a.id.localeCompare(b.id)).slice(0, MAX_NODES);
    const ids = new Set(shown.map((n) => n.id));
    const edges = g.edges.filter((e) => ids.has(e.source) && ids.has(e.target));
    const canvas = h('div', { id: 'cy', class: 'graph', role: 'img', 'aria-label': `Memory graph: ${shown.length} memories and ${edges.length} edges. The table below lists the same edges.` });
    const pick = h(
      'select',
      { id: 'focus-node', onchange: (e: Event) => this.focusNode((e.target as HTMLSelectElement).value) },
      h('option', { value: '' }, '— choose —'),
      shown.map((n) => h('option', { value: n.id }, n.summary)),
    );
    this.replaceChildren(
      h('h2', {}, 'Graph'),
      h(
        'p',
        { class: 'toolbar' },
        h('span', { id: 'graph-count' }, `${shown.length} memories, ${edges.length} edges`),
        g.isolated > 0 ? h('span', { class: 'muted' }, ` (${g.isolated} memories without edges not drawn)`) : null,
        ' ',
        h('label', { for: 'focus-node' }, 'Focus'),
        ' ',
        pick,
      ),
      canvas,
      h('p', { class: 'legend' }, Object.keys(COLORS).map((t) => h('span', { class: 'swatch-item' }, h('span', { class: `swatch swatch-${t}` }), t))),
      h(
        'details',
        {},
        h('summary', {}, 'Edges as a table'),
        table(
          ['source', 'relation', 'target', 'strength', 'status'],
          edges.slice(0, 2000).map((e) => [memoryLink(e.source), e.relation, memoryLink(e.target), fmt(e.strength), e.status]),
        ),
      ),
    );
    this.cy?.destroy();
    const cy = cytoscape({
      container: canvas,
      elements: [
        ...shown.map((n) => ({ data: { id: n.id, label: n.summary.length > 40 ? `${n.summary.slice(0, 39)}…` : n.summary, color: COLORS[n.type] ?? '#444', size: 18 + 30 * n.centrality } })),
        ...edges.map((e, i) => ({ data: { id: `e${i}`, source: e.source, target: e.target, label: e.relation, dashed: e.status === 'suggested' ? 'dashed' : 'solid' } })),
      ],
      style: [
        {
          selector: 'node',
          style: {
            'background-color': 'data(color)',
            label: 'data(label)',
            width: 'data(size)',
            height: 'data(size)',
            'font-size': 10,
            color: '#111',
            'text-background-color': '#fff',
            'text-background-opacity': 0.85,
            'text-background-padding': '2px',
            'text-valign': 'bottom',
            'text-margin-y': 4,
          },
        },
        { selector: 'node:selected', style: { 'border-width': 4, 'border-color': '#000' } },
        {
          selector: 'edge',
          style: {
            width: 1.5,
            'line-color': '#777',
            'target-arrow-color': '#777',
            'target-arrow-shape': 'triangle',
            'curve-style': 'bezier',
            'line-style': 'data(dashed)' as 'solid',
            label: 'data(label)',
            'font-size': 8,
            color: '#333',
            'text-rotation': 'autorotate',
          },
        },
      ],
      layout: shown.length <= 200 ? { name: 'cose', animate: false, randomize: false, nodeRepulsion: () => 8000 } : { name: 'concentric', concentric: (n) => n.degree(false), levelWidth: () => 2, animate: false },
      wheelSensitivity: 0.3,
    });
    cy.on('tap', 'node', (e) => (location.hash = `#/memory/${encodeURIComponent(e.target.id())}`));
    this.cy = cy;
  }

  private focusNode(id: string): void {
    if (!this.cy || !id) return;
    const node = this.cy.getElementById(id);
    this.cy.elements().unselect();
    node.select();
    this.cy.animate({ center: { eles: node }, zoom: 1.5 }, { duration: 200 });
    const open = this.querySelector('#open-node') ?? h('a', { id: 'open-node' });
    (open as HTMLAnchorElement).href = `#/memory/${encodeURIComponent(id)}`;
    open.textContent = 'Open this memory';
    this.querySelector('.toolbar')?.append(' ', open);
  }

  disconnectedCallback(): void {
    this.cy?.destroy();
    this.cy = undefined;
  }
}
customElements.define('cx-graph', GraphView);
