// What each view shows, built from the daemon's documents (docs/protocol.md) with plain DOM.

export const modeColors = { walk: '#1565C0', transit: '#6A1B9A', car: '#C62828', bike: '#2E7D32' };
export const modeNames = { walk: 'Walk', transit: 'Transit', car: 'Car', bike: 'Bike' };
const vehicleNames = { bus: 'bus', tram: 'tram', rail: 'train', subway: 'metro', ferry: 'ferry' };

// An element: h('p', {class: 'x'}, 'text', child...). Text is always text, never HTML.
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

// "08:02" from an ISO time in its region's zone; with the date when it is not on `day`.
export function clock(iso, day) {
  if (!iso) return '–';
  const time = iso.slice(11, 16);
  const date = iso.slice(0, 10);
  if (!day || date === day) return time;
  const [, month, dayOfMonth] = date.split('-');
  return `${time} (${Number(dayOfMonth)}.${Number(month)}.)`;
}

// "Wed 12 Jan 2022" for "2022-01-12" (the plan's own day, in its region's zone).
export function longDay(day) {
  if (!day) return '';
  const [year, month, dayOfMonth] = day.split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, dayOfMonth));
  return date.toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

// Durations read as umctl's (docs/planner.md "How times and durations read"): beside its two
// times a duration is the difference of the minutes shown; alone it is rounded, at least 1 min;
// from an hour on "1 h 07 min".
function minutesText(minutes) {
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

export function duration(seconds) {
  if (seconds === null || seconds === undefined) return '–';
  return minutesText(seconds > 0 ? Math.max(1, Math.round(seconds / 60)) : 0);
}

// The duration between two times the daemon wrote (ISO 8601 with their offset), as shown;
// "< 1 min" for two times in one shown minute with seconds between them, never "0 min".
export function durationBetween(departure, arrival, seconds) {
  const minute = (iso) => Math.floor(Date.parse(iso) / 60000);
  if (!departure || !arrival || Number.isNaN(minute(departure)) || Number.isNaN(minute(arrival))) return duration(seconds);
  const shown = Math.max(0, minute(arrival) - minute(departure));
  if (shown === 0 && Math.floor(Date.parse(arrival) / 1000) > Math.floor(Date.parse(departure) / 1000)) return '< 1 min';
  return minutesText(shown);
}

export function distance(metres) {
  if (metres === null || metres === undefined) return '';
  return metres < 1000 ? `${Math.round(metres)} m` : `${(metres / 1000).toFixed(1)} km`;
}

export function price(value, note) {
  if (value) return `${value.amount.toFixed(2)} ${value.currency}`;
  return note ?? '';
}

// A transit leg's fare or a car leg's cost in the words of `umctl plan show` ("fare 3.50 EUR", "fare:
// covered by the ticket bought on segment 1 at 08:00", "fare 3.50 EUR, tram 3 covered by the ticket
// bought on segment 1 at 09:13; bus 16 at 10:44 buys a new one, 3.50 EUR", "cost ≈ 2.40 EUR");
// null for a walk, and for a drive with no car cost set.
export function legPrice(leg, mode) {
  if (!leg || (mode !== 'transit' && mode !== 'car')) return null;
  const note = leg.price_note;
  if (mode === 'transit' && leg.price && note) return leg.price.amount === 0 ? `fare: ${note}` : `fare ${price(leg.price)}, ${note}`;
  if (leg.price) return mode === 'car' ? `cost ≈ ${price(leg.price)}` : `fare ${price(leg.price)}`;
  return mode === 'car' ? null : note ?? null;
}

const accessibilityWords = { step_free: 'step-free', unknown: 'step-free unknown', no: 'not step-free' };

// "08:12 → 08:18 (+6)" for a late ride, else its time.
function liveTime(time, scheduled, delay, day) {
  if (!scheduled || delay === null || delay === undefined) return clock(time, day);
  if (Math.round(delay / 60) === 0) return `${clock(time, day)} on time`;
  const minutes = Math.round(delay / 60);
  const amount = Math.abs(minutes) < 60 ? String(Math.abs(minutes)) : minutesText(Math.abs(minutes));
  return `${clock(scheduled, day)} → ${clock(time, day)} (${minutes > 0 ? '+' : '-'}${amount})`;
}

export function lineBadge(line, mode = 'transit') {
  return h('span', { class: `line ${mode}` }, line);
}

// MARK: - Compare

export function compareForm(values, onSubmit) {
  const form = h('form', { class: 'compare-form', onsubmit: (event) => { event.preventDefault(); onSubmit(new FormData(form)); } },
    h('label', {}, 'From', h('input', { name: 'from', required: true, value: values.from ?? '', autocomplete: 'off' })),
    h('label', {}, 'To', h('input', { name: 'to', required: true, value: values.to ?? '', autocomplete: 'off' })),
    h('label', {}, 'Leave at', h('input', { name: 'at', value: values.at ?? '', placeholder: 'now, 08:15 or 2022-01-12T08:15' })),
    h('button', { type: 'submit' }, 'Compare'));
  return form;
}

export function compareCards(document, onPlan) {
  const day = document.time?.slice(0, 10);
  const cards = h('ol', { class: 'options', 'aria-label': 'Modes compared' });
  for (const option of document.options) {
    const failed = option.error;
    cards.append(h('li', { class: `option ${option.fastest ? 'fastest' : ''}`, 'data-mode': option.mode },
      h('h3', {}, h('span', { class: 'swatch', style: null, 'data-color': option.mode }), modeNames[option.mode],
        option.fastest ? h('span', { class: 'tag' }, 'fastest') : null),
      failed ? h('p', { class: 'error' }, option.error.message) : [
        h('p', { class: 'duration', 'data-seconds': option.duration_s }, durationBetween(option.departure, option.arrival, option.duration_s)),
        h('p', { class: 'times' }, `${clock(option.departure, day)} → ${clock(option.arrival, day)}`),
        h('p', { class: 'details' }, [distance(option.distance_m), price(option.price, option.mode === 'walk' ? null : option.price_note),
          accessibilityWords[option.accessibility]].filter(Boolean).join(' · ')),
        option.lines.length ? h('p', { class: 'lines' }, option.lines.map((line) => lineBadge(line))) : null,
        // The engine's note, as umctl compare prints it under the table.
        option.walking_is_no_slower ? h('p', { class: 'walk-note' }, `note: walking the whole way is no slower than ${option.mode}`) : null,
        h('button', { type: 'button', onclick: () => onPlan(option.mode) }, `Plan by ${modeNames[option.mode].toLowerCase()}`),
      ]));
  }
  return cards;
}

// MARK: - Plan

export function planView(plan, actions) {
  const day = (plan.nodes.find((node) => node.time)?.time ?? '').slice(0, 10);
  const pinned = new Set(plan.pinned_segments ?? []);
  const pending = new Map((plan.pending ?? []).map((update) => [update.segment, update]));
  const chain = h('ol', { class: 'chain', 'aria-label': 'Places and legs' });
  plan.nodes.forEach((node, index) => {
    const number = index + 1;
    chain.append(h('li', { class: `node ${node.inferred ? 'inferred' : ''}` },
      h('span', { class: 'time' }, clock(node.time, day)),
      h('span', { class: 'name' }, node.name),
      node.stay_s ? h('span', { class: 'stay' }, `stay ${duration(node.stay_s)}, leave ${clock(node.departure, day)}`) : null,
      node.stay_until ? h('span', { class: 'stay' },
        `stay until ${clock(node.stay_until, day)}${node.stay_note ? `: ${node.stay_note}` : ''}, leave ${clock(node.departure, day)}`) : null,
      h('span', { class: 'node-buttons' },
        index < plan.nodes.length - 1
          ? h('button', { type: 'button', class: 'small', onclick: () => actions.stay(number) }, 'Add stay') : null,
        // Moving by typing: what dragging the node on the map does, by keyboard too.
        h('button', { type: 'button', class: 'small', 'aria-label': `Move place ${number}, ${node.name}`,
          onclick: () => actions.move(number, node.name) }, 'Move…'))));
    const segment = plan.segments[index];
    if (!segment) return;
    chain.append(segmentItem(plan, segment, index + 1, day, pinned.has(index + 1), pending.get(index + 1), actions));
  });
  return h('article', { class: 'plan', 'data-generation': plan.generation },
    h('header', {},
      h('h2', {}, plan.title),
      h('p', { class: 'summary' }, [`Plan ${plan.id}`, longDay(day), totalWords(plan, day), distance(plan.total_distance_m),
        // A known price says what it leaves out or prices otherwise than planned, as umctl's total.
        plan.price ? `${price(plan.price, null)}${plan.price_note ? ` (${plan.price_note})` : ''}` : null,
        `generation ${plan.generation}`].filter(Boolean).join(' · ')),
      plan.coverage_note ? h('p', { class: 'error' }, plan.coverage_note) : null,
      h('div', { class: 'buttons' },
        h('button', { type: 'button', onclick: actions.rename }, 'Rename'),
        h('button', { type: 'button', class: 'danger', onclick: actions.remove }, 'Delete')),
      h('p', { class: 'muted hint' }, 'On the map: drag a place to move it, drag a leg’s line to add a stop there (or Move… and Add a stop… here).')),
    chain);
}

// What an edit's answer says beyond the plan, as umctl prints it after the edit: its mode notes
// (less those a segment shows under it) and each pin it removed ("pin removed by this edit:
// Keskustori → Hervanta leaving 08:12").
export function editNotes(answer) {
  const day = (answer.nodes?.find((node) => node.time)?.time ?? '').slice(0, 10);
  const shown = new Set((answer.segments ?? []).map((segment, index) => segment.mode_note && `segment ${index + 1} ${segment.mode_note}`));
  return [...(answer.mode_notes ?? []).filter((note) => !shown.has(note)),
    ...(answer.removed_pins ?? []).map((pin) => `pin removed by this edit: ${pin.from} → ${pin.to} leaving ${clock(pin.departure, day)}`)];
}

// The door-to-door total as umctl's: an arrive-by plan shown following its late pins' proposals
// has that plan's total ("58 min following the proposal"); a plan with none says why, as umctl's
// "total: none (a connection is missed)" (trial 60 F9: the page's header said nothing).
function totalWords(plan, day) {
  const [first, last] = [plan.nodes[0]?.time, plan.nodes[plan.nodes.length - 1]?.time];
  if (plan.total_duration_s != null) return durationBetween(first, last, plan.total_duration_s);
  // A walk or drive pinned before the traveller gets there misses no connection: its time.
  const onlyStreets = plan.segments.every((segment) => !(segment.leg?.rides ?? []).length);
  const why = plan.time_preference?.kind === 'arrive_by' ? 'it arrives too late'
    : onlyStreets ? 'a pinned time is missed' : 'a connection is missed';
  if (plan.total_following_proposals_s == null) {
    return plan.segments.some((segment) => segment.missed_connection) ? `total: none (${why})` : 'total: incomplete (a leg is missing)';
  }
  // As pinned it arrives when the last leg, late, does ("as pinned it arrives 10:25, too late");
  // a late leg before the last says when it arrives ("as pinned segment 2 arrives 09:54, too late").
  const lastLate = plan.segments.findLastIndex((segment) => segment.missed_connection && segment.missed_as === 'late' && segment.leg?.arrival);
  // Missed at a change a delay broke, none late: as pinned a connection is missed (umctl's words).
  const missedOnly = plan.segments.some((segment) => segment.missed_connection && segment.missed_as === 'missed');
  const asPinned = lastLate < 0 ? (missedOnly ? 'a connection is missed' : why)
    : `${lastLate === plan.segments.length - 1 ? 'it' : `segment ${lastLate + 1}`} arrives ${clock(plan.segments[lastLate].leg.arrival, day)}, too late`;
  return `${durationBetween(first, last, plan.total_following_proposals_s)} following the proposal${plan.pending.length === 1 ? '' : 's'}`
    + ` (as pinned ${asPinned})`;
}

// The user's line choice as umctl marks it: "chose 9, 6", or after accepting a proposal on another
// line "line choice 9 replaced by bus 19" (the wire's `chosen_lines`, `line_choice_replaced`); null
// without a choice (trial 60 F9: the page said neither).
export function lineChoice(segment) {
  const chosen = (segment.chosen_lines ?? []).join(', ');
  if (segment.line_choice_replaced && segment.leg) {
    return `line choice ${chosen} replaced by ${(segment.leg.rides ?? []).map((ride) => `${ride.vehicle} ${ride.line}`).join(', ')}`;
  }
  return chosen ? `chose ${chosen}` : null;
}

// The time segment `number` is pinned to leave (`pins`; the leg's own departure without one), as
// umctl's `pinnedDeparture(ofSegment:)`.
function pinnedDeparture(plan, number) {
  return (plan.pins ?? []).find((pin) => pin.segment === number)?.departure ?? plan.segments[number - 1]?.leg?.departure;
}

// ", leaves 08:45" for a walk or drive that leaves later than the traveller gets to its start
// (pinned later; not after a stay, whose end says it), as umctl's "walk 3 min, 289 m, leaves 08:45".
function walkLeaves(plan, leg, number, day) {
  const node = plan.nodes[number - 1];
  if ((leg.rides ?? []).length || !node || node.stay_s != null || node.stay_until != null || !leg.departure || leg.departure === node.time) return '';
  return `, leaves ${clock(leg.departure, day)}`;
}

function segmentItem(plan, segment, number, day, isPinned, update, actions) {
  const leg = segment.leg;
  const modeSelect = h('select', { 'aria-label': `Mode of leg ${number}`, onchange: (event) => actions.mode(number, event.target.value) },
    Object.keys(modeNames).map((mode) => h('option', { value: mode, selected: mode === segment.mode }, modeNames[mode])));
  const rides = (leg?.rides ?? []).map((ride) => h('li', { class: `ride ${ride.cancelled ? 'cancelled' : ''}` },
    lineBadge(ride.line), ' ', vehicleNames[ride.vehicle] ?? ride.vehicle ?? '', ' ',
    h('span', { class: 'stop' }, ride.from), ' ', liveTime(ride.departure, ride.scheduled_departure, ride.delay_s, day),
    ' → ', h('span', { class: 'stop' }, ride.to), ' ', liveTime(ride.arrival, ride.scheduled_arrival, ride.arrival_delay_s, day),
    ride.headsign ? h('span', { class: 'headsign' }, ` towards ${ride.headsign}`) : null,
    // A headway-based ride's times are estimates, as umctl says beside it.
    ride.headway_s != null ? h('span', { class: 'headway' }, ` (about every ${duration(Math.max(ride.headway_s, 60))}; times are estimates)`) : null,
    ride.cancelled ? h('strong', {}, ride.skipped_stop ? ` does not stop at ${ride.skipped_stop}` : ' cancelled') : null,
    (ride.alerts ?? []).map((alert) => h('p', { class: 'alert' }, `! ${alert.header}${alert.description ? ': ' + alert.description : ''}`))));
  return h('li', { class: `segment ${segment.mode}`, 'data-segment': number },
    h('div', { class: 'leg-head' },
      h('span', { class: 'swatch', 'data-color': segment.mode }),
      modeSelect,
      // A ride missed on foot has no duration anyone travels (its span starts at a walk timed
      // back to the missed ride), as `umctl plan show` says.
      h('span', { class: 'leg-summary' }, leg ? `${missedOnFoot(segment) ? 'ride missed' : legSpan(leg)} · ${distance(leg.distance_m)}`
        + walkLeaves(plan, leg, number, day) : (segment.error?.message ?? 'no route yet')),
      segment.locked ? h('span', { class: 'tag', title: 'You decided this leg: presets and refinement leave it' }, 'locked') : null,
      lineChoice(segment) ? h('span', { class: 'tag choice' }, lineChoice(segment)) : null,
      // When the pin leaves, as umctl's header says it ("seg 2 pinned to leave 08:44"): a ride's when it leaves its stop.
      isPinned ? h('span', { class: 'tag pin', title: 'Pinned to this departure' }, `pinned to leave ${clock(pinnedDeparture(plan, number), day)}`) : null,
      // Late or missed as the daemon judged it (`missed_as`), the word umctl marks it with.
      segment.missed_connection ? h('span', { class: 'tag late' }, segment.missed_as ?? 'missed') : null),
    rides.length ? h('ul', { class: 'rides' }, rides) : null,
    // The engine's own note under a journey, as `umctl plan show` prints it under the leg's steps.
    leg?.walking_is_no_slower ? h('p', { class: 'walk-note' }, 'note: walking the whole way is no slower than this journey') : null,
    // Which ride buys a ticket and which an earlier one covers, as `umctl plan show` says it.
    legPrice(leg, segment.mode) ? h('p', { class: 'fare' }, legPrice(leg, segment.mode)) : null,
    // Why the segment has its mode, under it as `umctl plan show` prints it ("walked: walking
    // (6 min) is no slower than transit (9 min door to door from when the walk leaves, the wait
    // for the ride included)").
    segment.mode_note ? h('p', { class: 'mode-note' }, `mode: ${segment.mode_note}`) : null,
    missedRide(segment, day) ?? missedDeparture(plan, segment, number, day),
    lateArrival(plan, segment, number, day),
    // Which pin gave way and what held, as the daemon judged it (umctl prints the same sentence).
    segment.gives_way ? h('p', { class: 'gives-way' }, givesWayWords(plan, segment.gives_way, day)) : null,
    update ? pendingUpdate(plan, segment, update, number, day, actions) : null,
    h('div', { class: 'buttons' },
      // A ride is pinned by the time it leaves its stop, as shown (plan.pin reads it so), not the walk's start.
      leg ? h('button', { type: 'button', class: 'small', onclick: () => actions.pin(number, leg.rides?.[0]?.departure ?? leg.departure) },
        segment.mode === 'transit' ? 'Pin this ride' : 'Pin this time') : null,
      h('button', { type: 'button', class: 'small', onclick: () => actions.alternatives(number) }, 'Alternatives'),
      h('button', { type: 'button', class: 'small', 'aria-label': `Add a stop on leg ${number}`,
        onclick: () => actions.insert(number) }, 'Add a stop…'),
      h('a', { class: 'small button gmaps', href: '#', 'data-segment': number, target: '_blank', rel: 'noopener noreferrer',
        onclick: (event) => actions.link(event, number) }, 'Google Maps')),
    h('div', { class: 'alternatives', id: `alternatives-${number}` }));
}

// A leg's span between its shown times; for a walk, drive or cycle whose span holds waiting after
// it, its own minutes then the wait ("2 min, then wait 7 min"), as umctl's "walk 2 min, 135 m,
// then wait 7 min": a walk's minutes are walking minutes, and the two add up to the span.
export function legSpan(leg) {
  const minute = (seconds) => Math.floor(seconds / 60);
  const start = Date.parse(leg.departure ?? '') / 1000;
  const end = Date.parse(leg.arrival ?? '') / 1000;
  const moved = start + leg.duration_s;
  if ((leg.rides ?? []).length || Number.isNaN(start) || Number.isNaN(end) || minute(end) - minute(moved) <= 0) {
    return durationBetween(leg.departure, leg.arrival, leg.duration_s);
  }
  const iso = (seconds) => new Date(seconds * 1000).toISOString();
  return `${durationBetween(leg.departure, iso(moved), leg.duration_s)}, then wait ${durationBetween(iso(moved), leg.arrival, end - moved)}`;
}

// A ride missed on foot in the words of `umctl plan show` ("missed: bus 6 leaves Koskipuisto D at
// 09:02; the walk gets you there at 10:38"): the leg keeps its ride's times, and `reached` says when
// the traveller can be at its stop. Null unless the daemon gave that time for a leg walking to its ride.
function missedRide(segment, day) {
  const change = missedChange(segment);
  if (change) {
    // Caught at its start, the journey is missed at a change a delay broke (umctl's words).
    const [leaves, there] = clocksApart(change.ride.departure, segment.reached, day);
    return h('p', { class: 'missed-ride' },
      `missed: the change at ${change.ride.from}: ${change.ride.vehicle} ${change.ride.line} leaves at ${leaves}; `
      + `${change.before.vehicle} ${change.before.line} gets you there at ${there}`
      + tooLate(change.ride.departure, segment.reached));
  }
  if (!missedOnFoot(segment)) return null;
  const ride = segment.leg.rides[0];
  const [leaves, there] = clocksApart(ride.departure, segment.reached, day);
  return h('p', { class: 'missed-ride' },
    `missed: ${ride.vehicle} ${ride.line} leaves ${ride.from} at ${leaves}; `
    + `the walk gets you there at ${there}` + tooLate(ride.departure, segment.reached));
}

// Whether the leg's first ride is missed on foot (umctl's `MissedConnection.missedRide`): the daemon
// gave when the walk gets the traveller to its stop (`reached`), and no change is the one missed.
// Its leg keeps the ride's times, a span nobody travels: it reads "ride missed", as in umctl.
function missedOnFoot(segment) {
  const ride = segment.leg?.rides?.[0];
  const access = segment.leg?.walks?.[0];
  // An access walk of nothing (the node is the stop): the plain missed words say it, as umctl's.
  return Boolean(segment.missed_connection && segment.reached && ride && !missedChange(segment) && access?.kind === 'access'
    && (Math.round(access.distance_m) > 0 || access.duration_s >= 30));
}

// Two times to compare, "08:57" each, or "08:57:10" and "08:57:40" when they read the same minute
// (umctl's `MissedConnection.clocks`): "it leaves 08:57 but you get there at 08:57" says nothing.
export function clocksApart(first, second, day) {
  const [a, b] = [clock(first, day), clock(second, day)];
  if (a !== b || !first || !second) return [a, b];
  const seconds = (iso) => iso.slice(11, 19) + clock(iso, day).slice(5);
  return [seconds(first), seconds(second)];
}

// A missed leg otherwise in the words of `umctl plan show` ("missed: it leaves 08:15 but you get
// there at 08:17, 2 min too late"): its departure against when the traveller gets to (can leave)
// its start node. Null for a late leg (`lateArrival` says it) or without both times.
function missedDeparture(plan, segment, number, day) {
  const node = plan.nodes[number - 1];
  const ready = node?.departure ?? node?.time;
  if (!segment.missed_connection || segment.due || !segment.leg?.departure || !ready) return null;
  if (Date.parse(ready) - Date.parse(segment.leg.departure) < 500) return null;
  const [leaves, there] = clocksApart(segment.leg.departure, ready, day);
  return h('p', { class: 'missed-departure' },
    `missed: it leaves ${leaves} but you ${node.departure ? 'can leave' : 'get there'} at ${there}`
    + tooLate(segment.leg.departure, ready));
}

// ", 30 s too late" or ", 3 min too late": how far `later` is after `earlier` (umctl's
// `MissedConnection.gap`); "" when either time is unknown.
function tooLate(earlier, later) {
  const seconds = Math.round((Date.parse(later) - Date.parse(earlier)) / 1000);
  if (Number.isNaN(seconds)) return '';
  return `, ${seconds < 60 ? `${seconds} s` : durationBetween(earlier, later, seconds)} too late`;
}

// The ride of a missed journey that leaves before the ride before it gets the traveller to its stop
// (a change a realtime delay broke), and that ride before it, as the daemon judged it
// (`missed_change_ride`, numbered from 1 in `leg.rides`; `reached` is when they get there); null
// when no change is missed (umctl's `MissedConnection.missedChange`).
function missedChange(segment) {
  const rides = segment.leg?.rides ?? [];
  const number = segment.missed_change_ride;
  if (!segment.reached || !Number.isInteger(number) || number < 2 || number > rides.length) return null;
  return { ride: rides[number - 1], before: rides[number - 2] };
}

// A leg arriving late in an arrive-by plan in the words of `umctl plan show` ("late: it arrives
// 09:54 but you must be at TAYS A by 09:44, 10 min too late"): `due` is when the traveller must be
// there, as the daemon judged it, not the node's shown time (when the late leg gets there). Null
// without it. (Trial 60 F9: the page left out how late.)
function lateArrival(plan, segment, number, day) {
  if (!segment.missed_connection || !segment.due || !segment.leg?.arrival) return null;
  const [arrives, due] = clocksApart(segment.leg.arrival, segment.due, day);
  return h('p', { class: 'late-arrival' },
    `late: it arrives ${arrives} but you must be ${plan.nodes[number]?.at} by ${due}` + tooLate(segment.due, segment.leg.arrival));
}

// "the start at 08:00 and the stay at Shop until 09:30 hold, so the pin on segment 3 is missed"
// (umctl's `ConstraintConflict.wording`), from the segment's `gives_way`: the pin stays pinned,
// missed (late) as its tag says, a ride proposed.
export function givesWayWords(plan, givesWay, day) {
  const words = (c) => {
    const at = plan.nodes[c.node - 1]?.at ?? `at ${c.name}`;
    return ({
      pin: () => `the pin on segment ${c.segment}`,
      start: () => `the start at ${clock(c.time, day)}`,
      arriving_by: () => `the arrival by ${clock(c.time, day)}`,
      leaving_now: () => 'leaving now',
      stay_until: () => `the stay ${at} until ${clock(c.time, day)}`,
      stay: () => `the stay of ${duration(c.stay_s)} ${at}`,
    }[c.kind] ?? (() => c.kind.replaceAll('_', ' ')))();
  };
  const held = givesWay.held.map(words);
  const listed = held.length > 1 ? `${held.slice(0, -1).join(', ')} and ${held[held.length - 1]}` : (held[0] ?? '');
  const outcome = plan.segments[givesWay.gives.segment - 1]?.missed_as ?? 'missed';
  return `${listed} ${held.length === 1 ? 'holds' : 'hold'}, so ${words(givesWay.gives)} is ${outcome}`;
}

// A pending update in the words of `umctl plan show`: the proposal named by line and time
// ("tram 3 at 10:34 instead of the cancelled 10:26"), or why none can be caught ("no later bus B1
// today; the last left 23:12"). One of the two: `latest` is null exactly when nothing can be caught.
function pendingUpdate(plan, segment, update, number, day, actions) {
  const selected = update.selected ?? {};
  const failing = (selected.rides ?? []).find((ride) => ride.cancelled);
  const cancelled = Boolean(failing);
  const proposal = update.latest;
  let words;
  if (proposal) {
    // A ride whose trip skips its stop is named with the stop it skips (`proposalNaming`).
    const why = failing?.skipped_stop ? '' : cancelled ? 'the cancelled ' : segment.missed_connection ? `the ${segment.missed_as ?? 'missed'} ` : '';
    // A ride by the time it leaves its stop, as its pin is shown (umctl's `pendingLeg`): "Proposed:
    // bus 8 leaves 06:44, arrives 06:46 (2 min)"; a walk or drive is only retimed, as umctl says.
    const ride = proposal.rides?.[0];
    const leaves = ride ? ride.departure : proposal.departure;
    const retimed = !ride && !(selected.rides ?? []).length;
    words = [`${retimed ? 'Retimed' : 'Proposed'}: ${ride ? `${ride.vehicle} ${ride.line} ` : ''}leaves ${clock(leaves, day)}, `
      + `arrives ${clock(proposal.arrival, day)} (${durationBetween(leaves, proposal.arrival, ride ? null : proposal.duration_s)})`,
    proposalNaming(update, why, missedChange(segment)?.ride, day)];
  } else {
    words = [noCatchableRideNaming(update.no_catchable_ride, selected, day)];
  }
  return h('div', { class: 'pending', role: 'group', 'aria-label': 'Proposed change' },
    words.filter(Boolean).map((text) => h('p', {}, text)),
    proposal ? h('button', { type: 'button', onclick: () => actions.accept(number) }, 'Accept') : null,
    h('button', { type: 'button', onclick: () => actions.dismiss(number) }, 'Dismiss'));
}

// "tram 3 at 10:34 instead of the cancelled 10:26" (umctl's `proposalNaming`); the user's line is
// named too when the proposal rides another, and each further ride ("; then bus 2 at 08:12");
// null when the proposal rides nothing.
// The user's ride named is the one that fails: the cancelled one, else `missed` (a broken
// change's), else the first; any but the first is named with its line.
function proposalNaming(update, why, missed, day) {
  const ride = update.latest.rides?.[0];
  if (!ride) return null;
  const proposed = `${ride.vehicle} ${ride.line} at ${clock(ride.departure, day)}`;
  const then = update.latest.rides.slice(1).map((r) => `; then ${r.vehicle} ${r.line} at ${clock(r.departure, day)}`).join('');
  const first = update.selected?.rides?.[0];
  if (!first) return `${proposed} instead of ${why}${clock(update.selected?.departure, day)}${then}`;
  const chosen = update.selected.rides.find((r) => r.cancelled) ?? missed ?? first;
  const skipped = chosen.cancelled && chosen.skipped_stop ? `, which does not stop at ${chosen.skipped_stop}` : '';
  const sameLine = update.selected.rides.map((r) => r.line).join() === update.latest.rides.map((r) => r.line).join()
    && chosen === first && !skipped;
  const line = sameLine ? '' : `${chosen.vehicle} ${chosen.line} at `;
  return `${proposed} instead of ${why}${line}${clock(chosen.departure, day)}${skipped}${then}`;
}

// "no later bus B1 today; the last left 23:12" (the cancelled one: "the last was the cancelled
// 23:12"), or arrive-by "no earlier ride arrives by 08:05": umctl's `noCatchableRideNaming`.
export function noCatchableRideNaming(answer, selected, day) {
  if (answer?.kind === 'no_earlier_ride') return `no earlier ride arrives by ${clock(answer.time, day)}`;
  const ride = selected.rides?.[0];
  const line = ride ? `${ride.vehicle} ${ride.line}` : 'ride';
  const last = clock(ride?.departure ?? selected.departure, day);
  const cancelled = (selected.rides ?? []).some((r) => r.cancelled);
  const walking = answer?.walk_arrival ? `; walking gets you there at ${clock(answer.walk_arrival, day)}` : '';
  return `no later ${line} today; the last ${cancelled ? `was the cancelled ${last}` : `left ${last}`}${walking}`;
}

// The options as `umctl plan alternatives` lists them, column by column: "leaves" when the
// option leaves (its walk first), "boards" when its first ride leaves its stop (the time a pin
// takes, as the plan shows a pinned ride), "arrives", "takes", its lines; then Choose, or why
// a pin or the arrive-by time rules it out.
export function alternativesList(answer, onChoose) {
  const conflicts = new Map((answer.pin_conflicts ?? []).map((c) => [c.option, c]));
  const head = h('div', { class: 'choices-head', 'aria-hidden': 'true' },
    ['#', 'leaves', 'boards', 'arrives', 'takes'].map((name) => h('span', {}, name)));
  return h('div', { class: 'alternatives-list' }, head,
    h('ol', { class: 'choices', 'aria-label': `Alternatives for leg ${answer.segment}` },
      answer.options.map((leg, index) => {
        const conflict = conflicts.get(index + 1);
        const first = leg.rides?.[0];
        return h('li', {},
          h('span', { class: 'number' }, `${index + 1}`),
          h('span', { class: 'leaves', title: 'leaves' }, clock(leg.departure, answer.day)),
          h('span', { class: 'boards', title: first ? `boards ${first.vehicle} ${first.line} at ${first.from}` : 'no ride' },
            first ? clock(first.departure, answer.day) : '–'),
          h('span', { class: 'arrives', title: 'arrives' }, clock(leg.arrival, answer.day)),
          h('span', { class: 'takes' }, durationBetween(leg.departure, leg.arrival, leg.duration_s)),
          // Under the times (the side panel is narrow): its lines, then Choose or why not.
          h('div', { class: 'option-more' },
            h('span', { class: 'lines' }, (leg.rides ?? []).length ? leg.rides.map((ride) => lineBadge(ride.line)) : answer.mode),
            conflict
              ? h('span', { class: 'muted' }, ` ${pinConflictText(conflict, answer.day)}`)
              : h('button', { type: 'button', class: 'small', onclick: () => onChoose(index + 1, leg) }, 'Choose')));
      })));
}

// Why an option cannot be chosen with the plan's pins or its arrive-by time (as `umctl plan alternatives` says it),
// its times said so that they differ: with seconds when two read the same minute (trial 60 F10).
export function pinConflictText(conflict, day) {
  const [time, ready, arriveBy, pinnedTime, walkLeaves] = clocksSaidTogether(
    [conflict.time, conflict.ready, conflict.arrive_by, conflict.pinned, conflict.pinned_walk_leaves], day);
  if (conflict.kind === 'arrives_after_arrive_by') {
    const reached = ready === time ? '' : `the plan then ends at ${ready} at the earliest, `;
    return `arrives ${time}: ${reached}after the ${arriveBy} you must arrive by`;
  }
  // As the plan shows the pin (a ride: when it leaves its stop), and the walk to its stop when it leaves earlier.
  const pinned = (conflict.pinned ? ` to leave ${pinnedTime}` : '')
    + (conflict.pinned_walk_leaves ? `, the walk to its stop leaving ${walkLeaves}` : '');
  return conflict.kind === 'leaves_too_early'
    ? `leaves before you can be there from leg ${conflict.pinned_segment}, pinned${pinned}`
    : `too late for leg ${conflict.pinned_segment}, pinned${pinned}`;
}

// Times said together, each "09:33", or every one "09:33:40" when two different instants among
// them read the same minute (umctl's `MissedConnection.clocks`).
function clocksSaidTogether(times, day) {
  const minutes = times.map((iso) => clock(iso, day));
  const instants = times.map((iso) => (iso ? Date.parse(iso) : NaN));
  const collide = minutes.some((shown, i) => minutes.some((other, j) => i < j && shown === other
    && !Number.isNaN(instants[i]) && !Number.isNaN(instants[j]) && instants[i] !== instants[j]));
  if (!collide) return minutes;
  return times.map((iso) => (iso ? iso.slice(11, 19) + clock(iso, day).slice(5) : clock(iso, day)));
}

// MARK: - Lists

export function planList(plans) {
  if (!plans.length) return h('p', {}, 'No plans yet: compare two places and plan one.');
  return h('ul', { class: 'list' }, plans.map((plan) => h('li', {},
    h('a', { href: `#/plan/${plan.id}` }, plan.title), h('span', { class: 'muted' }, ` ${plan.total_duration_s == null ? duration(null)
      : durationBetween(plan.departure, plan.arrival, plan.total_duration_s)}`))));
}

export function agendaList(agenda) {
  if (!agenda.plans.length) return h('p', {}, 'Nothing planned for today.');
  return h('ul', { class: 'list' }, agenda.plans.map((plan) => h('li', {},
    h('span', { class: 'time' }, clock(plan.leave)), ' ', h('a', { href: `#/plan/${plan.id}` }, plan.title),
    h('p', { class: 'muted' }, plan.first_leg),
    // Each state in the daemon's words ("bus 6 does not stop at Koskipuisto D"), its stable word as the class.
    h('p', {}, plan.states.map((state, index) => h('span', { class: `tag state-${state}` },
      plan.state_words?.[index] ?? state.replaceAll('_', ' ')))))));
}

export function placeList(places, onShow) {
  if (!places.length) return h('p', {}, 'No saved places: `umctl place save NAME PLACE` saves one.');
  return h('ul', { class: 'list' }, places.map((place) => h('li', {},
    h('button', { type: 'button', class: 'link', onclick: () => onShow(place) }, place.name),
    place.note ? h('span', { class: 'muted' }, ` ${place.note}`) : null)));
}
