import cytoscape, { type Core } from 'cytoscape';
import { separate, type Box } from '../separate.js';
import { api } from '../api.js';
import { h, memoryLink, table } from '../dom.js';
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

/** The smallest zoom a graph opens at: 12 px labels drawn at 10 px or more. */
const MIN_ZOOM = 0.85;

/** Node labels wrap at this width (model pixels). */
const LABEL_WIDTH = 120;

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
    const canvas = h('div', { id: 'cy', class: 'graph', role: 'img', 'aria-label': `Memory graph: ${shown.length} memories and ${edges.length} edges. The table beside it lists the same edges.` });
    const pick = h(
      'select',
      { id: 'focus-node', onchange: (e: Event) => this.focusNode((e.target as HTMLSelectElement).value) },
      h('option', { value: '' }, '— choose —'),
      shown.map((n) => h('option', { value: n.id }, n.summary)),
    );
    const title = new Map(shown.map((n) => [n.id, n.summary]));
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
      h('p', { class: 'muted' }, 'Point at an edge, or at a memory for all of its edges, to read the relation; every edge is also in the table.'),
      h(
        'div',
        { class: 'graph-layout' },
        canvas,
        h(
          'section',
          { class: 'edge-table', 'aria-labelledby': 'h-edge-table' },
          h('h3', { id: 'h-edge-table' }, 'Edges'),
          table(
            ['from', 'relation', 'to'],
            edges.slice(0, 2000).map((e) => [memoryLink(e.source, title.get(e.source)), h('span', { class: e.status === 'suggested' ? 'muted' : '' }, e.relation.replace(/_/g, ' '), e.status === 'suggested' ? ' (suggested)' : ''), memoryLink(e.target, title.get(e.target))]),
          ),
        ),
      ),
      h('p', { class: 'legend' }, Object.keys(COLORS).map((t) => h('span', { class: 'swatch-item' }, h('span', { class: `swatch swatch-${t}` }), t))),
    );
    this.cy?.destroy();
    const cy = cytoscape({
      container: canvas,
      elements: [
        ...shown.map((n) => ({ data: { id: n.id, label: n.summary.length > 60 ? `${n.summary.slice(0, 59)}…` : n.summary, color: COLORS[n.type] ?? '#444', size: 14 + 22 * n.centrality } })),
        ...edges.map((e, i) => ({ data: { id: `e${i}`, source: e.source, target: e.target, relation: e.relation, label: e.relation.replace(/_/g, ' '), dashed: e.status === 'suggested' ? 'dashed' : 'solid' } })),
      ],
      style: [
        {
          selector: 'node',
          style: {
            'background-color': 'data(color)',
            label: 'data(label)',
            width: 'data(size)',
            height: 'data(size)',
            'font-size': 12,
            color: '#111',
            'text-wrap': 'wrap',
            'text-max-width': `${LABEL_WIDTH}px`,
            'text-background-color': '#fff',
            'text-background-opacity': 0.9,
            'text-background-padding': '1px',
            'text-valign': 'bottom',
            'text-margin-y': 3,
          },
        },
        { selector: 'node:selected', style: { 'border-width': 4, 'border-color': '#000' } },
        {
          selector: 'edge',
          style: {
            width: 1.5,
            'line-color': '#888',
            'target-arrow-color': '#888',
            'target-arrow-shape': 'triangle',
            'curve-style': 'bezier',
            'line-style': 'data(dashed)' as 'solid',
            // No label at rest: on a drawing of many edges they cover each other and the nodes.
            label: '',
            'font-size': 11,
            color: '#000',
            'text-background-color': '#fff7d6',
            'text-background-opacity': 1,
            'text-background-padding': '2px',
            'text-rotation': 'none',
          },
        },
        {
          selector: 'edge.hover',
          // Drawn above the nodes and their labels while pointed at, so the relation is never hidden.
          style: { label: 'data(label)', 'font-size': 13, width: 3, 'line-color': '#0b57a4', 'target-arrow-color': '#0b57a4', 'z-compound-depth': 'top', 'z-index-compare': 'manual', 'z-index': 999 },
        },
      ],
      layout: { name: 'preset' },
      wheelSensitivity: 0.3,
    });
    cy.layout(
      shown.length <= 200
        ? { name: 'cose', animate: false, randomize: false, nodeDimensionsIncludeLabels: true, nodeRepulsion: () => 6000, idealEdgeLength: () => 50, gravity: 2, componentSpacing: 40 }
        : { name: 'concentric', concentric: (n) => n.degree(false), levelWidth: () => 2, animate: false },
    ).run();
    separateLabels(cy);
    cy.fit(undefined, 20);
    // Never shrink labels past reading: a large graph opens at a readable zoom around its
    // most central memory, and the rest is a drag (or the Focus list) away.
    if (cy.zoom() < MIN_ZOOM) {
      cy.zoom(MIN_ZOOM);
      cy.center(cy.getElementById(shown[0]!.id));
    }
    cy.on('tap', 'node', (e) => (location.hash = `#/memory/${encodeURIComponent(e.target.id())}`));
    cy.on('mouseover', 'edge', (e) => e.target.addClass('hover'));
    cy.on('mouseout', 'edge', (e) => e.target.removeClass('hover'));
    cy.on('mouseover', 'node', (e) => e.target.connectedEdges().addClass('hover'));
    cy.on('mouseout', 'node', (e) => e.target.connectedEdges().removeClass('hover'));
    this.cy = cy;
  }

  private focusNode(id: string): void {
    if (!this.cy || !id) return;
    const node = this.cy.getElementById(id);
    this.cy.elements().unselect();
    this.cy.edges().removeClass('hover');
    node.select();
    // Keyboard users get what pointing gives: the relations of the chosen memory's edges.
    node.connectedEdges().addClass('hover');
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

/**
 * Moves nodes apart until no node with its label overlaps another (force layouts only
 * approximate this, and labels are wider than nodes): each node's box with its label, as
 * Cytoscape measures it, is separated by `separate`, and the nodes follow their boxes.
 */
function separateLabels(cy: Core): void {
  const nodes = cy.nodes().toArray();
  const boxes: Box[] = nodes.map((n) => {
    const b = n.boundingBox({ includeLabels: true, includeOverlays: false, includeEdges: false });
    return { x1: b.x1, y1: b.y1, x2: b.x2, y2: b.y2 };
  });
  const moved = separate(boxes, { gap: 6 });
  cy.batch(() => {
    nodes.forEach((n, i) => {
      const p = n.position();
      n.position({ x: p.x + moved[i]!.dx, y: p.y + moved[i]!.dy });
    });
  });
}
