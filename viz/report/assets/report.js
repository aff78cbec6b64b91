// airscope report: the page script of every page. Puts each drawing in its
// place (drawings come from data/svg-*.js, loaded with <script>, which
// file:// allows where fetch() is refused), lets the user pan, zoom and find
// a node by name, marks the nodes a pass added, removed or changed and those
// `check` names, finds the node a #find=NAME link names, and drives the
// compare form. Plain JavaScript, no network, no build step.
(function () {
  'use strict';

  function drawings() { return window.AIRSCOPE_SVG || {}; }

  // The node lists of #changes: {"added": [...], "removed": [...], "changed": [...]}.
  function changeLists() {
    var el = document.getElementById('changes');
    return el ? JSON.parse(el.textContent) : null;
  }

  // Graphviz puts a node's name in the <title> of its <g class="node">.
  function nodeName(g) {
    var title = g.querySelector('title');
    return title ? title.textContent : '';
  }

  // The inputs drawn as a line of their user's label (dot_writer.h: `+2
  // inputs: primals_6 f32[384, 128], primals_7 f32[384]`, three named at
  // most): their names, so marks and searches for them land on the user.
  function bundledNames(g) {
    var names = [];
    g.querySelectorAll('text').forEach(function (t) {
      var m = /^\+\d+ inputs?: (.*)$/.exec(t.textContent);
      if (!m) return;
      // Items are "NAME SHAPE", and shapes hold ", " too: a name is a piece's first word that is an identifier.
      m[1].split(', ').forEach(function (piece) {
        var word = piece.split(' ')[0];
        if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(word)) names.push(word);
      });
    });
    return names;
  }

  // The later drawing shows what was added or changed, the earlier one what was removed or changed.
  function highlight(view, lists) {
    if (!lists) return;
    var marks = view.getAttribute('data-role') === 'before'
      ? { removed: lists.removed, changed: lists.changed }
      : { added: lists.added, changed: lists.changed };
    var kind = {};
    Object.keys(marks).forEach(function (cls) {
      (marks[cls] || []).forEach(function (name) { kind[name] = cls; });
    });
    view.querySelectorAll('g.node').forEach(function (g) {
      var cls = kind[nodeName(g)];
      bundledNames(g).forEach(function (name) { cls = cls || kind[name]; });
      if (cls) g.classList.add(cls);
    });
  }

  // The nodes `check` names (data-hazards, a JSON list): marked over the change colours.
  function markHazards(view) {
    var list = view.getAttribute('data-hazards');
    if (!list) return;
    var names = {};
    JSON.parse(list).forEach(function (name) { names[name] = true; });
    view.querySelectorAll('g.node').forEach(function (g) {
      if (names[nodeName(g)]) g.classList.add('hazard');
    });
  }

  // #find=NAME (a hazard's node, linked from a list): found in the page's first drawing.
  function findFromHash() {
    var m = /^#find=(.+)$/.exec(window.location.hash);
    if (!m) return;
    var input = document.querySelector('.drawing .graph-tools input[type=search]');
    if (!input) return;
    input.value = decodeURIComponent(m[1]);
    input.dispatchEvent(new Event('input'));
    input.scrollIntoView({ block: 'center' });
  }

  function getViewBox(svg) {
    var b = svg.viewBox.baseVal;
    return [b.x, b.y, b.width, b.height];
  }
  function setViewBox(svg, v) { svg.setAttribute('viewBox', v.join(' ')); }

  function panZoom(view, svg) {
    var full = getViewBox(svg);
    svg.removeAttribute('width');
    svg.removeAttribute('height');
    svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
    // Screen point -> drawing coordinates, and drawing units per screen pixel.
    function toDrawing(clientX, clientY) {
      var r = svg.getBoundingClientRect();
      var v = getViewBox(svg);
      var scale = Math.max(v[2] / r.width, v[3] / r.height);
      var left = v[0] - (r.width * scale - v[2]) / 2;
      var top = v[1] - (r.height * scale - v[3]) / 2;
      return { x: left + (clientX - r.left) * scale, y: top + (clientY - r.top) * scale, scale: scale };
    }
    function zoomAt(factor, x, y) {
      var v = getViewBox(svg);
      setViewBox(svg, [x - (x - v[0]) * factor, y - (y - v[1]) * factor, v[2] * factor, v[3] * factor]);
    }
    view.addEventListener('wheel', function (ev) {
      ev.preventDefault();
      var p = toDrawing(ev.clientX, ev.clientY);
      zoomAt(ev.deltaY > 0 ? 1.2 : 1 / 1.2, p.x, p.y);
    }, { passive: false });
    var drag = null;
    view.addEventListener('mousedown', function (ev) {
      drag = { x: ev.clientX, y: ev.clientY, v: getViewBox(svg), scale: toDrawing(ev.clientX, ev.clientY).scale };
      view.classList.add('dragging');
    });
    window.addEventListener('mousemove', function (ev) {
      if (!drag) return;
      setViewBox(svg, [drag.v[0] - (ev.clientX - drag.x) * drag.scale, drag.v[1] - (ev.clientY - drag.y) * drag.scale,
                       drag.v[2], drag.v[3]]);
    });
    window.addEventListener('mouseup', function () {
      drag = null;
      view.classList.remove('dragging');
    });
    return {
      fit: function () { setViewBox(svg, full); },
      zoom: function (factor) {
        var v = getViewBox(svg);
        zoomAt(factor, v[0] + v[2] / 2, v[1] + v[3] / 2);
      },
      // Centres the view on node group `g` (its box mapped through graphviz's transform).
      focus: function (g) {
        var box = g.getBBox();
        var m = svg.getScreenCTM().inverse().multiply(g.getScreenCTM());
        var p = svg.createSVGPoint();
        p.x = box.x + box.width / 2;
        p.y = box.y + box.height / 2;
        var c = p.matrixTransform(m);
        var v = getViewBox(svg);
        var size = Math.min(v[2], v[3], Math.max(box.width, box.height) * m.a * 12 + 200);
        setViewBox(svg, [c.x - size / 2, c.y - size / 2, size, size]);
      }
    };
  }

  function attachSearch(drawing, view, pz) {
    var input = drawing.querySelector('.graph-tools input[type=search]');
    var count = drawing.querySelector('.found-count');
    if (!input) return;
    input.addEventListener('input', function () {
      var query = input.value.trim();
      var hits = [];
      view.querySelectorAll('g.node').forEach(function (g) {
        var names = [nodeName(g)].concat(bundledNames(g));
        var hit = query !== '' && names.some(function (name) { return name.indexOf(query) >= 0; });
        g.classList.toggle('found', hit);
        if (hit) hits.push({ g: g, exact: names.indexOf(query) >= 0 });
      });
      hits.sort(function (a, b) { return (b.exact ? 1 : 0) - (a.exact ? 1 : 0); });
      count.textContent = query === '' ? '' : hits.length + ' found';
      if (hits.length) pz.focus(hits[0].g);
    });
  }

  // Puts a drawing into its view, once its data script has run.
  function mount(drawing) {
    var view = drawing.querySelector('.graph-view');
    if (!view || view.getAttribute('data-mounted')) return;
    var text = drawings()[view.getAttribute('data-svg')];
    if (text === undefined) return;
    view.innerHTML = text;
    view.setAttribute('data-mounted', '1');
    var svg = view.querySelector('svg');
    if (!svg) return;
    highlight(view, changeLists());
    markHazards(view);
    var pz = panZoom(view, svg);
    drawing.querySelectorAll('.graph-tools button[data-act]').forEach(function (button) {
      var act = button.getAttribute('data-act');
      if (act === 'fit') button.addEventListener('click', pz.fit);
      if (act === 'in') button.addEventListener('click', function () { pz.zoom(1 / 1.4); });
      if (act === 'out') button.addEventListener('click', function () { pz.zoom(1.4); });
    });
    attachSearch(drawing, view, pz);
  }

  // A drawing left out of the page until asked for (the earlier graph of a diff).
  function loadOnDemand(drawing, button) {
    var view = drawing.querySelector('.graph-view');
    button.addEventListener('click', function () {
      button.disabled = true;
      if (drawings()[view.getAttribute('data-svg')] !== undefined) {
        button.remove();
        mount(drawing);
        return;
      }
      var script = document.createElement('script');
      script.src = view.getAttribute('data-script');
      script.onload = function () {
        button.remove();
        mount(drawing);
      };
      script.onerror = function () { button.textContent = 'drawing missing'; };
      document.head.appendChild(script);
    });
  }

  function compareForm() {
    var form = document.getElementById('compare-form');
    if (!form) return;
    var data = JSON.parse(document.getElementById('compare-data').textContent);
    var a = document.getElementById('cmp-a');
    var b = document.getElementById('cmp-b');
    var note = document.getElementById('cmp-note');
    b.selectedIndex = b.options.length - 1;
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      var sa = data.snapshots[Number(a.value)];
      var sb = data.snapshots[Number(b.value)];
      if (sa === null || sb === null || sa === undefined || sb === undefined) {
        note.textContent = 'one of these stages has no graph';
        return;
      }
      if (sa === sb) {
        note.textContent = 'stages ' + a.value + ' and ' + b.value + ' have the same graph';
        return;
      }
      var page = data.pages[Math.min(sa, sb) + '-' + Math.max(sa, sb)];
      if (!page) {
        note.textContent = 'too many distinct graphs to compare every pair: compare neighbouring ones';
        return;
      }
      window.location.href = page;
    });
  }

  document.addEventListener('DOMContentLoaded', function () {
    document.querySelectorAll('.drawing').forEach(function (drawing) {
      var lazy = drawing.querySelector('.graph-view[data-lazy]');
      var button = drawing.querySelector('button[data-act=load]');
      if (lazy && button) loadOnDemand(drawing, button);
      else mount(drawing);
    });
    compareForm();
    findFromHash();
  });
  window.addEventListener('hashchange', findFromHash);
})();
