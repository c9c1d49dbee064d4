// Table Companion phone remote: buttons become POSTs to the API, and every update pushed
// by the server (Server-Sent Events) refreshes the page's live part from the server.
"use strict";
(() => {
  const csrf = document.querySelector('meta[name="csrf-token"]')?.content || "";
  const live = document.getElementById("live");
  const toast = document.getElementById("toast");
  let timers = [];
  // A button that changes meaning after a tap ("Build a house" becomes "Sell a building")
  // must not take a second tap meant for the first: after a tap, and after the live part is
  // redrawn, every button of the page ignores taps for a moment.
  const QUIET_MS = 600;
  let quietUntil = 0;
  const quiet = () => performance.now() < quietUntil;
  function hush() {
    quietUntil = performance.now() + QUIET_MS;
    document.body.dataset.quiet = "1";
    setTimeout(() => {  // after the tap's own click is done: it still sends its form
      for (const b of live ? live.querySelectorAll("button:not([disabled])") : []) {
        b.disabled = true;
        b.dataset.hushed = "";
      }
    }, 0);
    clearTimeout(hush.timer);
    hush.timer = setTimeout(() => {
      delete document.body.dataset.quiet;
      for (const b of document.querySelectorAll("button[data-hushed]")) {
        b.disabled = false;
        delete b.dataset.hushed;
      }
    }, QUIET_MS + 20);
  }

  const shownVersion = () => {
    const part = live?.querySelector("[data-version]");
    return part ? Number(part.dataset.version) : null;
  };

  function show(message, bad) {
    if (!toast || !message) return;
    toast.textContent = message;
    toast.className = bad ? "bad on" : "on";
    clearTimeout(show.timer);
    show.timer = setTimeout(() => { toast.className = ""; }, 4000);
  }

  // What the phone's user is typing survives the live re-renders: the fields whose value
  // differs from what the server wrote, and the focused field with its caret, are found again
  // in the new HTML by their form (its kind and position) and name, and set back. A form
  // sent successfully is reset instead, as a re-render used to do.
  const formKeys = (root) => {
    const keys = new Map();
    const count = {};
    for (const form of root.querySelectorAll("form")) {
      const kind = form.dataset.cmdForm || form.dataset.apiForm ||
        form.getAttribute("action") || "";
      count[kind] = (count[kind] || 0) + 1;
      keys.set(form, `${kind}#${count[kind]}`);
    }
    return keys;
  };
  const ticks = (el) => el.type === "checkbox" || el.type === "radio";
  function fields(root) {
    const forms = formKeys(root);
    const out = new Map();
    const count = {};
    for (const el of root.querySelectorAll("input, select, textarea")) {
      if (!el.name || el.type === "hidden" || el.type === "submit") continue;
      let key = `${(el.form && forms.get(el.form)) || ""}|${el.name}`;
      if (ticks(el)) key += `=${el.value}`;
      count[key] = (count[key] || 0) + 1;
      out.set(`${key}#${count[key]}`, el);
    }
    return out;
  }
  function edited(el) {
    if (ticks(el)) return el.checked !== el.defaultChecked;
    if (el.tagName === "SELECT") {
      const first = [...el.options].find((o) => o.defaultSelected) || el.options[0];
      return Boolean(first) && el.value !== first.value;
    }
    return el.value !== el.defaultValue;
  }
  function typed() {
    const kept = [];
    let focus = null;
    const active = document.activeElement;
    for (const [key, el] of fields(live)) {
      if (edited(el)) kept.push([key, ticks(el) ? el.checked : el.value]);
      if (el === active) {
        focus = { key, start: el.selectionStart, end: el.selectionEnd,
                  direction: el.selectionDirection };
      }
    }
    const errors = [];  // a refusal said beside a form stays beside it
    for (const [form, key] of formKeys(live)) {
      const slot = form.querySelector("[data-form-error]");
      if (slot && !slot.hidden && slot.textContent) errors.push([key, slot.textContent]);
    }
    return { kept, focus, errors };
  }
  function retype({ kept, focus, errors }) {
    for (const [form, key] of formKeys(live)) {
      const said = errors.find(([k]) => k === key);
      if (said) formError(form, said[1]);
    }
    const now = fields(live);
    for (const [key, value] of kept) {
      const el = now.get(key);
      if (!el) continue;
      if (ticks(el)) el.checked = value;
      else if (el.tagName !== "SELECT" || [...el.options].some((o) => o.value === value)) {
        el.value = value;
      }
    }
    const el = focus && now.get(focus.key);
    if (!el) return;
    el.focus({ preventScroll: true });
    if (typeof focus.start === "number") {
      try { el.setSelectionRange(focus.start, focus.end, focus.direction || "none"); }
      catch (e) { /* a field without a caret (number, select) */ }
    }
  }
  function sent(form) {
    const key = formKeys(live).get(form);
    return () => {
      if (form.isConnected) { form.reset(); return; }
      for (const [now, k] of formKeys(live)) if (k === key) now.reset();
    };
  }

  let inFlight = null;
  let again = false;
  let events = null;  // the live stream (`follow`)
  let partsLive = false;  // the stream sends the live part (below: "parts")
  let due = 0;  // the version a part is awaited for (0: none)
  let dueGame = false;  // ... after another game was dealt: its versions may be lower
  // body[data-busy] while the page waits for the server (a command or form sent, its live
  // part read again): once it is gone and the page shows the version the stream last said
  // (body[data-shown] == body[data-seen]), nothing redraws the page until the next news.
  let sending = 0;
  const busy = () => document.body.toggleAttribute("data-busy",
    sending > 0 || inFlight !== null || due > 0);
  async function whileBusy(send) {
    sending += 1;
    busy();
    try { return await send(); } finally { sending -= 1; busy(); }
  }
  // The live part drawn anew (read by `refresh`, or sent on the stream: "part"), keeping
  // what the phone's user was doing: folded sections, typed fields, the caret.
  let lastHtml = null;  // the live part's HTML as it was drawn last
  let draws = 0;  // how many times it was drawn: a read overtaken by a newer draw is dropped
  function draw(html) {
    // a folded section keeps its state by its name, not its place: sections come
    // and go with the game (the dice entry), and must not open others by themselves
    const fold = (d) => d.dataset.fold || (d.querySelector("summary") || {}).textContent;
    const open = new Set([...live.querySelectorAll("details")].filter((d) => d.open)
      .map(fold));
    const typing = typed();
    live.innerHTML = html;
    lastHtml = html;
    draws += 1;
    hush();
    live.querySelectorAll("details").forEach((d) => { d.open = open.has(fold(d)); });
    retype(typing);
    wire();
    newsDue();
    speakNews();
    document.body.dataset.shown = String(shownVersion());
    document.body.dataset.drawn = String(draws);  // the tests count redraws with it
    if (due && shownVersion() >= due) settle();
  }
  const versionIn = (html) => Number((/data-version="(\d+)"/.exec(html) || [])[1]);
  function refresh() {
    if (!live || !live.dataset.partial) return;
    if (inFlight) { again = true; return; }
    const url = new URL(live.dataset.partial, location.href);
    url.searchParams.set("partial", "1");
    if (voiceOn()) url.searchParams.set("say", "1");  // news lines as the voice says them
    const at = draws;
    inFlight = fetch(url, { credentials: "same-origin" })
      .then((r) => (r.ok ? r.text() : null))
      .then((html) => {
        if (html === null) return;
        // a part sent on the stream while this read was under way may be newer
        if (draws !== at && versionIn(html) < shownVersion()) return;
        draw(html);
      })
      .catch(() => {})
      .finally(() => {
        inFlight = null;
        if (again) { again = false; refresh(); }
        busy();
      });
    busy();
  }

  // A stream that carries the page's live part ("parts": web_remote/parts.py) sends it
  // after every move that changed the page: the page waits for it (body[data-busy]) instead
  // of reading it, and reads it itself only when none came within PART_WAIT_MS.
  const PART_WAIT_MS = 3000;
  function awaitPart(version, game) {
    due = Math.max(due, version);
    if (game) dueGame = true;
    clearTimeout(awaitPart.timer);
    awaitPart.timer = setTimeout(() => { if (due) { settle(); refresh(); } }, PART_WAIT_MS);
    busy();
  }
  function settle() {
    due = 0;
    dueGame = false;
    clearTimeout(awaitPart.timer);
    busy();
  }
  function partCame(data) {
    const shown = shownVersion();
    if (data.html === lastHtml) {  // shown already (the page read it itself)
      if (due && data.version >= due) settle();
      return;
    }
    if (!dueGame && shown !== null && data.version < shown) return;  // older than shown
    if (dueGame) settle();
    draw(data.html);
  }

  const post = (url, body) => whileBusy(() => postNow(url, body));
  async function postNow(url, body) {
    let data = {};
    let status = 0;
    try {
      const r = await fetch(url, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
        body: JSON.stringify(body),
      });
      status = r.status;
      data = await r.json().catch(() => ({}));
    } catch (e) {
      show(String(e), true);
      return false;
    }
    // a slip that is hard to take back (selling, a mortgage, a large correction): the
    // server asks first, in the phone's language; sent again only when confirmed
    if (!data.ok && data.confirm && !body.confirmed) {
      if (window.confirm(data.question || data.message)) {
        return post(url, { ...body, confirmed: true });
      }
      return false;
    }
    if (!data.ok) show(data.message || String(status), true);
    // a move the table took: its stream sends the page's new part (when it changed)
    if (data.ok && partsLive && url === "/api/commands" && typeof data.version === "number") {
      if (data.version > shownVersion()) awaitPart(data.version);
    } else {
      refresh();
    }
    return Boolean(data.ok);
  }

  // The banker's forms (data-inline: new game, PIN, tags, card registration, resume) are
  // sent from here, asking for JSON: a refusal is said beside the form, which keeps what was
  // typed; once done, the page's live part is refreshed and the form starts afresh. Without
  // this script they are plain POSTs and the server says the refusal on the banker page.
  function formError(form, message) {
    let slot = form.querySelector("[data-form-error]");
    if (!slot) {
      slot = document.createElement("p");
      slot.className = "error form-error";
      slot.dataset.formError = "";
      slot.setAttribute("role", "alert");
      form.append(slot);
    }
    slot.textContent = message || "";
    slot.hidden = !message;
  }
  const sendForm = (form, submitter) => whileBusy(() => sendFormNow(form, submitter));
  async function sendFormNow(form, submitter) {
    const body = new URLSearchParams(new FormData(form));
    if (submitter && submitter.name) body.append(submitter.name, submitter.value);
    formError(form, "");
    let data = {};
    let status = 0;
    try {
      const r = await fetch(form.action, {
        method: "POST",
        credentials: "same-origin",
        headers: { Accept: "application/json", "X-CSRF-Token": csrf },
        body,
      });
      status = r.status;
      data = await r.json().catch(() => ({}));
    } catch (e) {
      formError(form, String(e));
      return;
    }
    if (data.ok) sent(form)();
    else formError(form, data.message || String(status));
    refresh();
  }

  function serialize(form) {
    const out = {};
    for (const el of form.elements) {
      if (!el.name || el.disabled || el.type === "submit") continue;
      if (el.type === "checkbox" && !el.checked) continue;
      let value = el.value;
      // data-bool: a yes/no field (the banker's correction, "passed GO")
      // data-num: a number when it looks like one (the speed die: 1, 2, 3, "bus"...)
      if (el.dataset.bool !== undefined) {
        value = value === "true";
      } else if (el.type === "number" || el.dataset.int !== undefined ||
          ((el.type === "checkbox" || el.dataset.num !== undefined) && /^-?\d+$/.test(value))) {
        if (value === "") continue;
        value = Number(value);
      }
      const path = el.name.split(".");
      let target = out;
      for (const key of path.slice(0, -1)) target = target[key] = target[key] || {};
      let last = path[path.length - 1];
      if (last.endsWith("[]")) {
        last = last.slice(0, -2);
        (target[last] = target[last] || []).push(value);
      } else {
        target[last] = value;
      }
    }
    return out;
  }

  // the new-game form follows the chosen edition: how many players it allows, said under the
  // names and checked before the form may be sent
  function checkPlayers(form) {
    const option = form.querySelector("select[name=edition]")?.selectedOptions[0];
    const input = form.querySelector("input[name=players]");
    const said = form.querySelector("[data-players-allowed]");
    if (!option || !input) return;
    const count = input.value.split(/[,\n]/).filter((name) => name.trim()).length;
    const wrong = count > 0 && (count < Number(option.dataset.min) ||
                                count > Number(option.dataset.max));
    input.setCustomValidity(wrong ? option.dataset.allowed : "");
    if (said) {
      said.textContent = option.dataset.allowed;
      said.classList.toggle("bad", wrong);
    }
  }
  for (const kind of ["input", "change"]) {
    document.addEventListener(kind, (ev) => {
      const form = ev.target.closest?.("form[data-players-form]");
      if (form) checkPlayers(form);
    });
  }

  document.addEventListener("click", (ev) => {
    const tapped = ev.target.closest?.("button, input[type=submit]");
    if (tapped && live && live.contains(tapped)) {
      if (quiet()) {  // a second tap landing where the first one's button was
        ev.preventDefault();
        ev.stopImmediatePropagation();
        return;
      }
      hush();
    }
    const el = ev.target.closest("button[data-cmd], button[data-api], [data-confirm]");
    if (!el) return;
    if (el.dataset.confirm && el.form && el.type === "submit" && !el.form.checkValidity()) {
      ev.preventDefault();  // say what is wrong before asking to confirm
      el.form.reportValidity();
      return;
    }
    if (el.dataset.confirm && !window.confirm(el.dataset.confirm)) {
      ev.preventDefault();
      return;
    }
    if (el.dataset.cmd) {
      ev.preventDefault();
      post("/api/commands", { command: JSON.parse(el.dataset.cmd), version: shownVersion() });
    } else if (el.dataset.api) {
      ev.preventDefault();
      post(el.dataset.api, { version: shownVersion() });
    }
  });

  document.addEventListener("submit", (ev) => {
    const form = ev.target;
    if (form.dataset.cmdForm) {
      ev.preventDefault();
      const command = { do: form.dataset.cmdForm, ...serialize(form) };
      const done = sent(form);
      post("/api/commands", { command, version: shownVersion() }).then((ok) => ok && done());
    } else if (form.dataset.apiForm) {
      ev.preventDefault();
      const done = sent(form);
      post(form.dataset.apiForm, { ...serialize(form), version: shownVersion() })
        .then((ok) => ok && done());
    } else if (form.dataset.inline !== undefined) {
      ev.preventDefault();
      sendForm(form, ev.submitter);
    }
  });

  document.addEventListener("change", (ev) => {
    if (ev.target.matches("select[data-autosubmit]")) ev.target.form.submit();
  });

  // The trade form offers only the deeds of the player the trade is with.
  function counterpart(select) {
    const form = select.form;
    form.querySelectorAll("label[data-owner]").forEach((label) => {
      const theirs = label.dataset.owner === select.value;
      label.hidden = !theirs;
      if (!theirs) label.querySelector("input").checked = false;
    });
  }

  document.addEventListener("change", (ev) => {
    if (ev.target.matches("select[data-counterpart]")) counterpart(ev.target);
  });

  function wire() {
    timers.forEach(clearInterval);
    timers = [];
    document.querySelectorAll("select[data-counterpart]").forEach(counterpart);
    document.querySelectorAll("form[data-players-form]").forEach(checkPlayers);
    document.querySelectorAll("[data-countdown]").forEach((el) => {
      let left = Number(el.dataset.countdown);
      const tick = setInterval(() => {
        left = Math.max(0, left - 1);
        el.textContent = String(left);
        if (left === 0) { el.classList.add("done"); clearInterval(tick); }
      }, 1000);
      timers.push(tick);
    });
  }

  // A player's news stays on their phone until they have seen it: a line counts as seen
  // once it has been in view (inside the news box and the screen) on a visible page
  // (document.visibilityState) for SEEN_AFTER_MS at a stretch; "…and 3 earlier moves"
  // stands for the keys of those moves. Then its keys are sent (POST /api/news/seen); the
  // line stays here, dimmed, until the next update, and the player's other phones drop it.
  // A hidden page, a line scrolled away, or a page reloaded before the time is up marks
  // nothing.
  const SEEN_AFTER_MS = 3000;
  const since = new Map();  // a news key -> when it came into view on a visible page
  const marking = new Set();  // keys this page sent (or is sending)
  const refused = new Set();  // keys the server refused once: not sent again from this page
  function inView(el) {
    const line = el.getBoundingClientRect();
    const box = el.parentElement.getBoundingClientRect();
    const top = Math.max(0, box.top);
    const bottom = Math.min(window.innerHeight, box.bottom);
    return line.height > 0 && Math.min(line.bottom, bottom) - Math.max(line.top, top) >=
      0.75 * line.height;
  }
  function keysInView() {
    const list = live?.querySelector("ul.news[data-mark]");
    const out = [];
    for (const li of list ? list.querySelectorAll("li[data-key], li[data-keys]") : []) {
      if (inView(li)) out.push(...(li.dataset.key || li.dataset.keys).split(" "));
    }
    return out.filter((k) => k && !marking.has(k));
  }
  function newsDue() {
    clearTimeout(newsDue.timer);
    if (document.visibilityState !== "visible") { since.clear(); return; }
    const keys = keysInView();
    const now = performance.now();
    for (const k of [...since.keys()]) if (!keys.includes(k)) since.delete(k);
    for (const k of keys) if (!since.has(k)) since.set(k, now);
    const due = keys.filter((k) => now - since.get(k) >= SEEN_AFTER_MS);
    if (due.length) markSeen(due);
    const waiting = keys.filter((k) => !due.includes(k)).map((k) => since.get(k));
    if (waiting.length) {
      newsDue.timer = setTimeout(newsDue, Math.max(50, Math.min(...waiting) + SEEN_AFTER_MS - now));
    }
  }
  // scrolling the page or the news box brings lines into view and out of it
  let scrolled = null;
  const rescan = () => { clearTimeout(scrolled); scrolled = setTimeout(newsDue, 150); };
  document.addEventListener("scroll", rescan, { capture: true, passive: true });
  window.addEventListener("resize", rescan);
  async function markSeen(keys) {
    keys.forEach((k) => marking.add(k));
    let ok = false;
    try {
      const r = await fetch("/api/news/seen", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
        body: JSON.stringify({ keys }),
      });
      ok = r.ok;
    } catch (e) { /* offline: tried again with the next update */ }
    if (ok) {
      for (const li of live ? live.querySelectorAll("ul.news li") : []) {
        const shown = (li.dataset.key || li.dataset.keys || "").split(" ");
        if (shown.every((k) => !k || marking.has(k))) li.classList.add("seen");
      }
      return;
    }
    // another phone of the player marked some first, or a move was undone: read the news
    // again from the server, and mark what is still unseen there (once more at most)
    for (const k of keys) {
      if (!refused.has(k)) marking.delete(k);
      refused.add(k);
    }
    refresh();
  }
  document.addEventListener("visibilitychange", newsDue);

  // What changed in the live part is said by a screen reader through one live region
  // that stays (#announce: the part itself is replaced): new news lines, and the headline,
  // the card and an auction's highest bid when their text changed. A player may also have
  // their own news read aloud in their own earpiece (the browser's speech, in the page's
  // language, each line as data-say words it: amounts spoken): the choice is this phone's
  // (localStorage); a line is read once (this tab).
  // A browser lets a page speak only once somebody touched it (Chrome answers "not-allowed",
  // Safari stays silent), and a page loaded anew (a reload, another page and back) is
  // untouched: its lines wait, #wake says so, and the first tap or key anywhere says them.
  const SPEAK = "companion.speakNews";
  const spoken = new Set();
  const said = new Map();  // a [data-announce] element's kind -> its last text
  let waiting = [];  // lines to say once the page was touched
  const voiceOn = () => localStorage.getItem(SPEAK) === "1";
  let tapped = false;  // for a browser that does not say whether the page was touched
  const touched = () => (navigator.userActivation ? navigator.userActivation.hasBeenActive
    : tapped);
  function wakeShown() {
    const wake = document.getElementById("wake");
    if (wake) wake.hidden = !(waiting.length && voiceOn());
  }
  function talk(texts) {
    if (!window.speechSynthesis || !texts.length) return;
    if (!touched()) {
      waiting.push(...texts);
      wakeShown();
      return;
    }
    for (const text of texts) {
      const utterance = new SpeechSynthesisUtterance(text);
      utterance.lang = document.documentElement.lang;
      utterance.addEventListener("error", (e) => {  // refused after all: wait for a tap
        if (e.error === "not-allowed") { waiting.push(text); wakeShown(); }
      });
      window.speechSynthesis.speak(utterance);
    }
  }
  let unlocked = false;
  function woken(ev) {  // a tap or a key: the page may speak now
    if (ev && !ev.isTrusted) return;  // a script's event is nobody's tap
    tapped = true;
    if (!voiceOn() || !window.speechSynthesis || !touched()) return;
    if (!unlocked) {  // Safari speaks later only if it spoke during a tap once
      unlocked = true;
      if (!waiting.length) window.speechSynthesis.speak(new SpeechSynthesisUtterance(""));
    }
    const texts = waiting;
    waiting = [];
    wakeShown();
    talk(texts);
  }
  for (const kind of ["pointerup", "keydown", "click"]) window.addEventListener(kind, woken, true);
  function speakNews() {
    const box = live ? live.querySelector("input[data-speak-news]") : null;
    const on = voiceOn();
    if (box) {
      box.checked = on;
      box.onchange = () => {
        localStorage.setItem(SPEAK, box.checked ? "1" : "0");
        if (!box.checked) waiting = [];
        restream();  // the part sent on the stream says the news as the voice does, or not
        woken();  // ticked: a tap, so the page may speak from now on
        wakeShown();
      };
    }
    const lines = [...(live ? live.querySelectorAll("ul.news li[data-key]") : [])];
    const fresh = lines.filter((li) => !spoken.has(li.dataset.key));
    fresh.forEach((li) => spoken.add(li.dataset.key));
    const changed = [];
    for (const el of live ? live.querySelectorAll("[data-announce]") : []) {
      const kind = el.dataset.news || el.className;
      const text = el.textContent.trim();
      if (said.get(kind) !== text) { said.set(kind, text); changed.push(text); }
    }
    const first = !speakNews.primed;
    speakNews.primed = true;
    if (first) return;  // the page as loaded is read by the screen reader itself
    const news = fresh.map((li) => li.textContent.trim());
    const region = document.getElementById("announce");
    if (region && (changed.length || news.length)) region.textContent = [...changed, ...news].join(". ");
    if (on) talk(fresh.map((li) => li.dataset.say || li.textContent.trim()));
  }

  wire();
  newsDue();
  speakNews();
  if (live && live.dataset.partial && window.EventSource) {
    document.body.dataset.shown = String(shownVersion());
    follow();
  }

  // A page reads its live part again only when it may show something that changed: the
  // stream says which pages each move changed, judged once on the server for every phone
  // (docs/phone-remote.md): "pages" among the Table, History, Worth and Rules pages, "me"
  // the players whose Me page may show something new (null: anybody's). That says what
  // changed since version "from": a page showing another version (its stream missed one,
  // or it was drawn before a move it has not been told of) reads its part again, as does
  // every page after "game" (a game dealt, or another saved game switched to, whose
  // versions may be lower). A page that shows nothing new takes the new version as it is,
  // so its buttons act on it. Any other page (the banker's, the story) reads it again.
  const page = document.body.dataset.page || "";
  const SHARED = new Set(["table", "history", "worth", "rules"]);  // no trades shown there
  function unchangedHere(data) {
    if (!Array.isArray(data.pages) || data.from !== shownVersion()) return false;
    if (SHARED.has(page)) return !data.pages.includes(page);
    if (page === "me") {  // the server names the players whose Me page may have changed
      const who = live.querySelector(".part[data-player]")?.dataset.player;
      return Boolean(who) && Array.isArray(data.me) && !data.me.includes(who);
    }
    return false;
  }
  function keep(version) {
    for (const el of live.querySelectorAll("[data-version]")) {
      el.dataset.version = String(version);
    }
    document.body.dataset.shown = String(version);
    if (due && version >= due) settle();  // a tap's move that left this page as it was
  }

  // The Me page shows the offers its player made or was made (the live part's data-offers:
  // their ids and failed accepts). When the table's offers change, it asks the table's view for this seat
  // (GET /api/table: only what this phone may see) and reads its live part again only
  // when those differ from what it shows: a phone not part of a trade between others keeps
  // its page. Any doubt (no answer, the banker's view of every offer): refresh.
  async function seatOffersChanged() {
    const shown = live.querySelector(".part[data-offers]");
    if (!shown) return true;
    try {
      const r = await fetch("/api/table", { credentials: "same-origin" });
      if (!r.ok) return true;
      const now = ((await r.json()).offers || [])  // as pages.offers_key writes it
        .map((o) => `${o.id}:${o.error_code || ""}:${o.error ? 1 : 0}`).sort().join(" ");
      return now !== shown.dataset.offers;
    } catch (e) {
      return true;
    }
  }

  // The live stream; a refused one (too many phones follow the table: 503) is closed by
  // the browser for good, so the page asks again a little later. A page with a live part
  // asks the stream to carry it (`part`: the page's address as it reads it, `shown`: the
  // version it shows).
  function streamUrl() {
    const url = new URL("/api/stream", location.href);
    const part = new URL(live.dataset.partial, location.href);
    if (voiceOn()) part.searchParams.set("say", "1");
    url.searchParams.set("part", part.pathname + part.search);
    const shown = shownVersion();
    if (shown !== null) url.searchParams.set("shown", String(shown));
    return url.pathname + url.search;
  }
  // The part the stream sent last, whole: the next one comes as a change of it, the text
  // both share at the start and at the end kept (web_remote/part_change.py: `of`, `head`
  // and `tail` count UTF-16 code units, as JavaScript slices strings). null: not one whole
  // part known on this stream, so a change cannot be made whole.
  let streamPart = null;
  let changes = 0;  // parts made whole from a change (body[data-changes]: the tests count)
  function partSent(data) {
    if (typeof data.mid !== "string") return typeof data.html === "string" ? data.html : null;
    const before = streamPart;
    if (before === null || before.length !== data.of || data.head + data.tail > data.of) {
      return null;
    }
    document.body.dataset.changes = String(++changes);
    return before.slice(0, data.head) + data.mid + before.slice(before.length - data.tail);
  }
  function restream() {  // the part asked for changed (the voice turned on or off)
    if (!events) return;
    events.close();
    partsLive = false;
    follow();
  }
  function follow() {
    const stream = events = new EventSource(streamUrl());
    stream.addEventListener("error", () => {
      partsLive = false;  // until the stream says again that it carries the part
      if (stream.readyState === EventSource.CLOSED && events === stream) {
        setTimeout(follow, 10000);
      }
    });
    stream.addEventListener("parts", () => { partsLive = true; streamPart = null; });
    stream.addEventListener("part", (e) => {
      const data = JSON.parse(e.data);
      const html = partSent(data);
      if (html === null) {  // a change of a part this page does not have: a stream anew
        streamPart = null;  // sends its first part whole
        restream();
        return;
      }
      streamPart = html;
      partCame({ version: data.version, html });
    });
    stream.addEventListener("state", (e) => {
      const data = JSON.parse(e.data);
      document.body.dataset.seen = String(data.version);
      if (data.game) {  // another game: its versions tell nothing
        if (partsLive) awaitPart(data.version, true); else refresh();
        return;
      }
      const shown = shownVersion();
      if (data.version === shown) return;
      if (unchangedHere(data)) keep(data.version);
      else if (!partsLive) refresh();
      else if (shown === null || data.version > shown) awaitPart(data.version);
      // a stream's first word, lower than shown: another game was dealt meanwhile
      else if (!Array.isArray(data.pages)) awaitPart(data.version, true);
    });
    stream.addEventListener("trades", () => {
      if (SHARED.has(page)) return;
      if (page === "me") seatOffersChanged().then((changed) => { if (changed) refresh(); });
      else refresh();
    });
    // another phone of the player saw news this page shows: the page drops it
    stream.addEventListener("news", (e) => {
      const keys = JSON.parse(e.data).keys || [];
      const shown = [...(live ? live.querySelectorAll("ul.news li") : [])]
        .flatMap((li) => (li.dataset.key || li.dataset.keys || "").split(" "));
      if (keys.some((k) => !marking.has(k) && shown.includes(k))) refresh();
    });
    stream.addEventListener("joined", () => {
      document.querySelectorAll('img[data-refresh-on="joined"]').forEach((img) => {
        img.src = img.src.split("?")[0] + "?t=" + Date.now();
      });
    });
    // the table's hardware warnings (the Pi's power): the codes shown now
    stream.addEventListener("warnings", (e) => {
      const shown = JSON.parse(e.data).shown || [];
      document.querySelectorAll("[data-warning]").forEach((el) => {
        el.hidden = !shown.includes(el.dataset.warning);
      });
    });
    stream.addEventListener("open", () => { document.body.dataset.live = "1"; });
  }
})();
