// The Useful Map web app: a map (Leaflet, with the daemon's own tiles), a search box, and
// views reached by URL (#/compare?from=..&to=.., #/plan/ID, #/plans, #/agenda, #/places).
// Every change goes through the daemon's methods; its events keep the open view current.
import * as L from '/leaflet/leaflet.esm.js';
import { call, follow } from '/app/api.js';
import * as views from '/app/views.js';
import { h } from '/app/views.js';

const panel = document.getElementById('panel');
const statusLine = document.getElementById('status');
const state = { view: null, planID: null, shownGeneration: null, compare: {} };

let sayTimer = null;
// `keep`: news the page shows nowhere else (a pin an edit removed) stays until the next.
function say(text, isError = false, keep = false) {
  statusLine.textContent = text;
  statusLine.classList.toggle('error', isError);
  clearTimeout(sayTimer);
  if (text && !isError && !keep) sayTimer = setTimeout(() => { statusLine.textContent = ''; }, 4000);
}

async function attempt(action) {
  try {
    return await action();
  } catch (error) {
    say(error.message, true);
    return undefined;
  }
}

// MARK: - Map

const map = L.map('map', { minZoom: 10, maxZoom: 18, zoomControl: true, attributionControl: true });
map.attributionControl.setPrefix(false);
const drawn = L.layerGroup().addTo(map);
let tiles = null;

async function showRegion() {
  const { regions } = await call('region.list');
  if (!regions.length) {
    say('No region is imported: `umctl region import NAME FILE.osm.pbf` imports one.', true);
    map.setView([0, 0], 10);
    return;
  }
  const region = regions[0];
  tiles = L.tileLayer(`/tiles/${encodeURIComponent(region.name)}/{z}/{x}/{y}.png`, {
    minZoom: 10, maxZoom: 18, attribution: '© OpenStreetMap contributors',
  }).addTo(map);
  // For the browser test and anyone scripting the page: whether every visible square has come.
  tiles.on('loading', () => { document.body.dataset.tiles = 'loading'; });
  tiles.on('load', () => { document.body.dataset.tiles = 'loaded'; });
  const [south, west, north, east] = region.bounds;
  map.setView([(south + north) / 2, (west + east) / 2], 13);
}

function line(points, mode, options = {}) {
  return L.polyline(points, { color: views.modeColors[mode] ?? '#444', weight: mode === 'walk' ? 4 : 6, opacity: 0.85,
    dashArray: mode === 'walk' ? '2 8' : null, ...options });
}

function marker(lat, lon, label) {
  return L.circleMarker([lat, lon], { radius: 7, color: '#222', weight: 2, fillColor: '#fff', fillOpacity: 1 })
    .bindTooltip(label, { direction: 'right', offset: [8, 0] });
}

function fit(layers) {
  const group = L.featureGroup(layers);
  if (layers.length) map.fitBounds(group.getBounds(), { padding: [30, 30], maxZoom: 16 });
}

// "What is here" on a long press (touch) or a right click.
map.on('contextmenu', async (event) => {
  const { lat, lng } = event.latlng;
  const place = `${lat.toFixed(5)},${lng.toFixed(5)}`;
  const found = await attempt(() => call('where', { place }));
  if (!found) return;
  const rows = [found.label ?? 'outside every region', found.address?.address, found.place?.name, found.street?.name]
    .filter(Boolean);
  const content = h('div', { class: 'popup', 'data-place': place }, rows.map((row) => h('p', {}, row)),
    h('p', { class: 'muted coordinate' }, place),
    h('button', { type: 'button', onclick: () => useAs('from', place) }, 'From here'),
    h('button', { type: 'button', onclick: () => useAs('to', place) }, 'To here'),
    h('button', { type: 'button', class: 'small', onclick: () => savePlace(place, found.place?.name ?? found.address?.name) }, 'Save place…'));
  L.popup().setLatLng(event.latlng).setContent(content).openOn(map);
});

// Saves a place under a name the user gives (`place.save`); it is then offered by the search box.
async function savePlace(place, suggestion) {
  const name = prompt('Save this place as', suggestion ?? '');
  if (!name) return;
  const saved = await attempt(() => call('place.save', { name, place }));
  if (!saved) return;
  map.closePopup();
  say(`Saved “${saved.name}”.`);
  if (location.hash.startsWith('#/places')) route();
}

function useAs(end, place) {
  state.compare[end] = place;
  map.closePopup();
  if (state.compare.from && state.compare.to) go(compareHash(state.compare));
  else go('#/compare');
}

// MARK: - Search

const searchForm = document.getElementById('search');
const searchBox = document.getElementById('search-text');
const suggestions = document.getElementById('suggestions');
let searchTimer = null;
let found = [];

searchBox.addEventListener('input', () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(complete, 120);
});

async function complete() {
  const text = searchBox.value.trim();
  if (!text) return showSuggestions([]);
  const answer = await attempt(() => call('search.complete', { text, limit: 8 }));
  if (answer && searchBox.value.trim() === text) showSuggestions(answer.results);
}

function showSuggestions(results) {
  found = results;
  suggestions.replaceChildren(...results.map((result, index) => h('li', {
    role: 'option', id: `suggestion-${index}`, tabindex: '-1', 'aria-selected': 'false',
    onclick: () => pick(index), onkeydown: (event) => moveIn(event, index),
  }, h('strong', {}, result.name), h('span', { class: 'muted' }, ` ${result.address ?? (result.kind === 'saved' ? 'saved place' : result.kind)}`))));
  suggestions.hidden = results.length === 0;
  searchBox.setAttribute('aria-expanded', String(results.length > 0));
}

function moveIn(event, index) {
  const items = suggestions.children;
  if (event.key === 'ArrowDown' && index + 1 < items.length) items[index + 1].focus();
  else if (event.key === 'ArrowUp') (index > 0 ? items[index - 1] : searchBox).focus();
  else if (event.key === 'Enter') pick(index);
  else if (event.key === 'Escape') { showSuggestions([]); searchBox.focus(); }
  else return;
  event.preventDefault();
}

searchBox.addEventListener('keydown', (event) => {
  if (event.key === 'ArrowDown' && suggestions.children.length) { suggestions.children[0].focus(); event.preventDefault(); }
  if (event.key === 'Escape') showSuggestions([]);
});

searchForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  const text = searchBox.value.trim();
  if (!text) return;
  const answer = await attempt(() => call('search', { text, limit: 8 }));
  if (answer?.results.length) { found = answer.results; pick(0); } else if (answer) say(`Nothing found for “${text}”.`, true);
});

function pick(index) {
  const place = found[index];
  showSuggestions([]);
  searchBox.value = place.name;
  drawn.clearLayers();
  const point = marker(place.lat, place.lon, place.name).addTo(drawn);
  map.setView([place.lat, place.lon], 16);
  point.openTooltip();
  panel.replaceChildren(h('h2', {}, place.name), h('p', { class: 'muted' }, place.address ?? place.category ?? place.kind),
    h('div', { class: 'buttons' },
      h('button', { type: 'button', onclick: () => useAs('from', place.name) }, 'From here'),
      h('button', { type: 'button', onclick: () => useAs('to', place.name) }, 'To here')));
}

// MARK: - Views

function go(hash) {
  if (location.hash === hash) route(); else location.hash = hash;
}

function compareHash({ from, to, at }) {
  const query = new URLSearchParams({ from, to });
  if (at) query.set('at', at);
  return `#/compare?${query}`;
}

async function route() {
  const hash = location.hash.slice(1) || '/';
  const [path, queryText] = hash.split('?');
  const query = new URLSearchParams(queryText ?? '');
  state.planID = null;
  state.shownGeneration = null;
  for (const link of document.querySelectorAll('nav a')) {
    link.toggleAttribute('aria-current', hash.startsWith(link.getAttribute('href').slice(1)));
  }
  say('');
  if (path === '/compare') return compareView(query);
  const plan = path.match(/^\/plan\/(\d+)$/);
  if (plan) return planView(Number(plan[1]));
  if (path === '/plans') return listView('Plans', async () => views.planList((await call('plan.list')).plans));
  if (path === '/agenda') return listView('Today', async () => views.agendaList(await call('agenda.day')));
  if (path === '/places') return listView('Saved places', async () => views.placeList((await call('place.list')).places, showPlace));
  panel.replaceChildren(h('h2', {}, 'Where to?'),
    h('p', {}, 'Search a place above, or long-press the map to ask what is there. Compare walking, transit, car and bike, then plan the trip.'),
    views.compareForm(state.compare, submitCompare));
}

async function listView(title, build) {
  drawn.clearLayers();
  panel.replaceChildren(h('h2', {}, title), h('p', { class: 'muted' }, 'Loading…'));
  const content = await attempt(build);
  if (content) panel.replaceChildren(h('h2', {}, title), content);
}

function showPlace(place) {
  drawn.clearLayers();
  marker(place.lat, place.lon, place.name).addTo(drawn).openTooltip();
  map.setView([place.lat, place.lon], 16);
}

function submitCompare(form) {
  go(compareHash({ from: form.get('from'), to: form.get('to'), at: form.get('at') || undefined }));
}

async function compareView(query) {
  state.compare = { from: query.get('from') ?? state.compare.from, to: query.get('to') ?? state.compare.to, at: query.get('at') ?? undefined };
  const form = views.compareForm(state.compare, submitCompare);
  panel.replaceChildren(h('h2', {}, 'Compare'), form);
  if (!state.compare.from || !state.compare.to) return;
  panel.append(h('p', { class: 'muted', id: 'comparing' }, 'Comparing…'));
  const params = { from: state.compare.from, to: state.compare.to, geometry: true };
  if (state.compare.at) params.at = state.compare.at;
  const answer = await attempt(() => call('compare', params));
  document.getElementById('comparing')?.remove();
  if (!answer) return;
  panel.append(h('p', { class: 'muted' }, `${answer.from.name} → ${answer.to.name}`),
    views.compareCards(answer, (mode) => planFromCompare(answer, mode)));
  drawn.clearLayers();
  const layers = [];
  // The walk last, so that it is on top as on the PNG maps.
  for (const option of [...answer.options].sort((a, b) => (a.mode === 'walk') - (b.mode === 'walk'))) {
    for (const points of option.geometry ?? []) layers.push(line(points, option.mode).bindTooltip(views.modeNames[option.mode]).addTo(drawn));
  }
  layers.push(marker(answer.from.lat, answer.from.lon, answer.from.name).addTo(drawn),
    marker(answer.to.lat, answer.to.lon, answer.to.name).addTo(drawn));
  fit(layers);
}

async function planFromCompare(answer, mode) {
  const params = { from: state.compare.from, to: state.compare.to, mode };
  if (state.compare.at) params.at = state.compare.at;
  const plan = await attempt(() => call('plan.new', params));
  if (plan) go(`#/plan/${plan.id}`);
}

// `onlyIfNewer`: after an edit or a recompute, a plan of the generation already shown is not
// drawn again (its answer and its event both ask; drawing once keeps an open list in place).
async function planView(id, keepView = false, onlyIfNewer = false) {
  state.planID = id;
  const plan = await attempt(() => call('plan.show', { id, geometry: true }));
  if (!plan || state.planID !== id) return;
  if (onlyIfNewer && state.shownGeneration !== null && plan.generation <= state.shownGeneration) return;
  state.shownGeneration = plan.generation;
  const edit = async (method, params) => {
    const changed = await attempt(() => call(method, { id, expected_generation: plan.generation, ...params }));
    if (changed) {
      // What umctl prints after an edit: the notes of its answer, and the pins it removed.
      const notes = views.editNotes(changed);
      say([`${method.replace('plan.', '')}: done`, ...notes].join('; '), false, notes.length > 0);
      planView(id, true, true);
    }
  };
  const actions = {
    stay: (node) => {
      const minutes = prompt(`Stay how many minutes at place ${node}?`, '30');
      if (minutes !== null && Number(minutes) >= 0) edit('plan.stay', { node, duration_s: Math.round(Number(minutes) * 60) });
    },
    move: (node, name) => {
      const place = prompt(`Move place ${node} (${name}) to: a place, an address, a stop or lat,lon`, '');
      if (place) edit('plan.move', { node, place });
    },
    insert: (segment) => {
      const place = prompt(`Add a stop after place ${segment}: a place, an address, a stop or lat,lon`, '');
      if (place) edit('plan.insert', { after: segment, place });
    },
    mode: (segment, mode) => edit('plan.mode', { segment, mode }),
    pin: (segment, time) => edit('plan.pin', { segment, time }),
    accept: (segment) => edit('plan.accept', { segment }),
    dismiss: (segment) => edit('plan.dismiss', { segment }),
    rename: () => {
      const title = prompt('New title', plan.title);
      if (title) edit('plan.rename', { title });
    },
    remove: async () => {
      if (!confirm(`Delete plan ${id}, “${plan.title}”?`)) return;
      if (await attempt(() => call('plan.delete', { id }))) go('#/plans');
    },
    alternatives: async (segment) => {
      const answer = await attempt(() => call('plan.alternatives', { id, segment, count: 5 }));
      if (!answer) return;
      document.getElementById(`alternatives-${segment}`).replaceChildren(views.alternativesList(answer, (option, leg) =>
        edit('plan.choose', { segment, option, count: 5, departure: leg.departure,
          trip_ids: (leg.rides ?? []).map((ride) => ride.trip_id).filter(Boolean) })));
    },
    link: async (event, segment) => {
      if (event.currentTarget.dataset.ready) return;
      event.preventDefault();
      const anchor = event.currentTarget;
      const link = await attempt(() => call('plan.link', { id, segment }));
      if (!link) return;
      anchor.href = link.url;
      anchor.dataset.ready = 'yes';
      window.open(link.url, '_blank', 'noopener');
    },
  };
  panel.replaceChildren(views.planView(plan, actions));
  drawn.clearLayers();
  const layers = [];
  plan.segments.forEach((segment, index) => {
    const leg = segment.leg;
    if (!leg) return;
    // Each leg's lines carry its number (class `leg-N`): pressing one and dragging inserts a stop
    // there. The press lands on a wider unseen line over the drawn one: a walk's dots are mostly gaps.
    const legLine = (points, mode) => {
      line(points, mode, { interactive: false }).addTo(drawn);
      return L.polyline(points, { weight: 16, opacity: 0, className: `leg leg-${index + 1}` })
        .on('mousedown', (event) => dragNewStop(event, index + 1, edit)).addTo(drawn);
    };
    if (leg.geometry) layers.push(legLine(leg.geometry, segment.mode));
    for (const walk of leg.walks ?? []) if (walk.geometry) layers.push(legLine(walk.geometry, 'walk'));
    for (const ride of leg.rides ?? []) {
      if (ride.geometry) layers.push(legLine(ride.geometry, 'transit').bindTooltip(`${ride.line} ${ride.from} → ${ride.to}`));
    }
  });
  plan.nodes.forEach((node, index) => layers.push(nodeMarker(node, index + 1, edit).addTo(drawn)));
  if (!keepView) fit(layers);
}

// MARK: - Dragging on the plan's map

function coordinate(latlng) {
  return `${latlng.lat.toFixed(6)},${latlng.lng.toFixed(6)}`;
}

// A node of the plan: drag it to move the place (`plan.move` with the coordinate where it is dropped).
function nodeMarker(node, number, edit) {
  const icon = L.divIcon({ className: 'node-marker', iconSize: [16, 16], iconAnchor: [8, 8], html: '' });
  const point = L.marker([node.lat, node.lon], { icon, draggable: true, riseOnHover: true })
    .bindTooltip(`${node.name} (drag to move)`, { direction: 'right', offset: [8, 0] });
  point.on('add', () => {
    const element = point.getElement();
    element.dataset.node = number;
    element.setAttribute('aria-label', `Place ${number}, ${node.name}: drag to move it`);
  });
  point.on('dragend', () => {
    say(`Moving place ${number}…`);
    edit('plan.move', { node: number, place: coordinate(point.getLatLng()) });
  });
  return point;
}

// Google Maps' "drag the route": pressing a leg's line and dragging carries a new stop, which is
// inserted after the leg's first node where it is dropped (`plan.insert`). A press without a
// drag does nothing, so a click still shows the line's tooltip.
function dragNewStop(event, segment, edit) {
  if (event.originalEvent.button !== 0) return;
  L.DomEvent.stop(event);  // the map does not see this press: no pan
  L.DomEvent.preventDefault(event.originalEvent);  // nor selects text while dragging
  map.dragging.disable();
  const start = event.containerPoint;
  let ghost = null;
  const move = (moved) => {
    if (!ghost && moved.containerPoint.distanceTo(start) < 5) return;
    ghost ??= L.marker(moved.latlng, { icon: L.divIcon({ className: 'node-marker new', iconSize: [16, 16], iconAnchor: [8, 8] }),
      interactive: false }).addTo(map);
    ghost.setLatLng(moved.latlng);
  };
  const end = (ended) => {
    map.off('mousemove', move);
    map.off('mouseup', end);
    document.removeEventListener('mouseup', endOutside);
    map.dragging.enable();
    if (!ghost) return;
    ghost.remove();
    if (!ended) return;
    say(`Inserting a stop after place ${segment}…`);
    edit('plan.insert', { after: segment, place: coordinate(ended.latlng) });
  };
  // A release outside the map drops nothing.
  const endOutside = (released) => { if (!map.getContainer().contains(released.target)) end(null); };
  map.on('mousemove', move);
  map.on('mouseup', end);
  document.addEventListener('mouseup', endOutside);
}

// MARK: - Live

let refreshTimer = null;
follow((event) => {
  document.body.dataset.lastEvent = event.kind;
  if (state.planID !== null && event.plan_id === state.planID) {
    if (event.kind === 'plan_deleted') { say(`Plan ${state.planID} was deleted.`, true); return; }
    const newer = event.kind === 'plan_recomputed';
    if (newer && state.shownGeneration !== null && event.generation <= state.shownGeneration) return;
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => planView(state.planID, true, newer), 50);
  }
  if (event.kind === 'pending_update' || event.kind === 'delay' || event.kind === 'cancelled') {
    say(`Plan ${event.plan_id}: ${event.kind.replace('_', ' ')}`);
  }
}, (live) => {
  const badge = document.getElementById('live');
  badge.dataset.state = live;
  badge.textContent = live === 'live' ? 'Live' : 'Offline';
  badge.title = live === 'live' ? 'Changes made elsewhere show here at once' : 'Not following the daemon; reconnecting';
});

window.addEventListener('hashchange', route);
showRegion().catch((error) => say(error.message, true)).finally(route);
