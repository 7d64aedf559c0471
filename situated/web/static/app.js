// The situated page: sign in with an API key (exchanged for an HttpOnly session cookie), ask,
// read the answer with its citation links, answer a clarification, see the budget.
// Answers are drawn as text nodes; the only links made are the answer's own: a Markdown link
// whose target is a path of this server or an http(s) address.
"use strict";

const state = { csrf: null, follows: null, situation: null };
const $ = (id) => document.getElementById(id);

function show(id, visible) { $(id).hidden = !visible; }

async function call(method, path, body) {
  const headers = { "Accept": "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (state.csrf && method !== "GET") headers["X-CSRF-Token"] = state.csrf;
  const reply = await fetch(path, {
    method, headers, credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await reply.json(); } catch (e) { data = null; }
  return { status: reply.status, data };
}

function problem(data, fallback) {
  if (data && typeof data.detail === "string") return data.detail;
  if (data && Array.isArray(data.detail) && data.detail.length) {
    return data.detail.map((d) => d.msg || JSON.stringify(d)).join("; ");
  }
  return fallback;
}

function signedIn(name, csrf) {
  state.csrf = csrf;
  $("who").textContent = "signed in as " + name;
  show("logout", true); show("login", false); show("asker", true);
  $("question").focus();
}

function signedOut(message) {
  state.csrf = null; state.follows = null; state.situation = null;
  $("who").textContent = "";
  show("logout", false); show("asker", false); show("result", false); show("login", true);
  $("login-error").textContent = message || "";
  $("key").focus();
}


function safeHref(target) {
  if (target.startsWith("/") && !target.startsWith("//") && !target.includes("\\")) return target;
  return /^https?:\/\/[^\s/]/i.test(target) ? target : null;
}

// what a Markdown renderer shows: escapes undone, and the entities `<` and `>` are sent as
// (drawn as text nodes, so nothing here can become markup)
function unescapeMarkdown(text) {
  return text.replace(/\\([!-\/:-@\[-`{-~])/g, "$1").replace(/&lt;/g, "<").replace(/&gt;/g, ">");
}

function appendText(node, text) {
  // inline code spans stay code (an escaped backtick opens or closes none); everything else
  // is plain text
  const parts = text.split(/((?<!\\)`[^`]*(?<!\\)`)/);
  for (const part of parts) {
    if (part.length > 1 && part.startsWith("`") && part.endsWith("`")) {
      const code = document.createElement("code");
      code.textContent = part.slice(1, -1);
      node.appendChild(code);
    } else if (part) {
      node.appendChild(document.createTextNode(unescapeMarkdown(part)));
    }
  }
}

function link(text, href) {
  const a = document.createElement("a");
  a.href = href; a.target = "_blank"; a.rel = "noopener noreferrer";
  a.className = "citation";
  a.textContent = text;
  return a;
}

// A citation's visible text as the output parser writes it (`citations.link_text`): the
// source and section, every Markdown-active character escaped.
function citationText(c) { return c.source_id + (c.section ? ", section " + c.section : ""); }
function escapeMarkdown(text) { return text.replace(/([\\`*_{}\[\]()<>#!|])/g, "\\$1"); }

// Links come from the answer's structured citations only: the exact `[text](link)` the parser
// wrote for each one becomes a link whose text is the citation's own; any other bracket or
// link in the answer (a document's, a model's) stays plain text.
function renderAnswer(node, text, citations) {
  node.replaceChildren();
  const made = new Map();
  for (const c of citations) {
    const href = safeHref(c.link);
    if (href) made.set("[" + escapeMarkdown(citationText(c)) + "](" + c.link + ")", [citationText(c), href]);
  }
  const forms = [...made.keys()].sort((a, b) => b.length - a.length);
  let last = 0;
  while (forms.length) {
    let at = -1, form = null;
    for (const f of forms) {
      const i = text.indexOf(f, last);
      if (i >= 0 && (at < 0 || i < at)) { at = i; form = f; }
    }
    if (form === null) break;
    appendText(node, text.slice(last, at));
    const [label, href] = made.get(form);
    node.appendChild(link(label, href));
    last = at + form.length;
  }
  appendText(node, text.slice(last));
}

function renderList(id, items, draw) {
  const list = $(id);
  list.replaceChildren();
  for (const item of items) {
    const li = document.createElement("li");
    draw(li, item);
    list.appendChild(li);
  }
}

// what each status tells a person (the contract's word stays in data-status)
const STATUS_WORDS = {
  answered: "Answered",
  clarify: "Needs one more detail",
  no_evidence: "Nothing in the documents you can read answers this",
  withheld: "Withheld: the answer cited a source it was not given",
};

// "Read WARR-R2, ERR-CAT — for C-3, bought 2026-03-15": the documents and the situation the
// answer comes from, so a reader sees which version applied
function considered(answer) {
  const s = answer.situation || {};
  const who = [];  // what the answer is for: "for C-3, version 2.0"
  if (s.product) who.push(s.product);
  if (s.version) who.push("version " + s.version);
  for (const [name, value] of Object.entries(s.facets || {})) who.push(name + " " + value);
  const when = [];  // and when: "bought 15 March 2026", "as of 12 March 2025"
  if (s.purchase_date) when.push("bought " + day(s.purchase_date));
  if (s.request_date) when.push("requested " + day(s.request_date));
  if (s.as_of) when.push("as of " + day(s.as_of));
  if (s.known_on) when.push("as known on " + day(s.known_on));
  const sources = [...new Set(answer.evidence.map((e) => e.source_id))];
  const read = sources.length ? "Documents read: " + sources.join(", ") : "No document was read";
  const facts = [...(who.length ? ["for " + who.join(", ")] : []), ...when];
  return read + (facts.length ? " — " + facts.join(", ") : "") + ".";
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
                "September", "October", "November", "December"];

// "2025-03-12" as people write it: "12 March 2025"
function day(iso) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return m ? Number(m[3]) + " " + MONTHS[Number(m[2]) - 1] + " " + m[1] : iso;
}

function render(answer) {
  show("result", true);
  $("status").textContent = STATUS_WORDS[answer.status] || answer.status;
  $("status").dataset.status = answer.status;
  $("missing").textContent = answer.missing.length ? "(needs: " + answer.missing.join(", ") + ")" : "";
  $("considered").textContent = considered(answer);
  // a clarification is shown once, in the box above the question that answers it
  renderAnswer($("answer"), answer.status === "clarify" ? "" : answer.answer, answer.citations);
  show("cited", answer.citations.length > 0);
  renderList("citations", answer.citations, (li, c) => {
    const href = safeHref(c.link);
    const text = c.label + ": " + c.source_id + (c.section ? ", section " + c.section : "");
    if (href) li.appendChild(link(text, href)); else li.textContent = text;
  });
  const b = answer.budget;
  $("budget").textContent = b
    ? "Budget: " + b.used + " of " + b.allowance + " evidence tokens used (window " + b.window +
      ", " + b.reserved_input + " reserved for the prompt, " + b.reserved_output + " for the reply)."
    : "Budget: none spent (no model call on this route).";
  $("evidence-count").textContent = String(answer.evidence.length);
  renderList("evidence", answer.evidence, (li, e) => {
    const meta = document.createElement("div");
    meta.className = "meta";
    meta.textContent = "[" + e.label + "] " + e.source_id + (e.section ? ", section " + e.section : "") +
      " · " + e.tokens + " tokens";
    li.appendChild(meta);
    li.appendChild(document.createTextNode(e.text));
  });
}

function clarifying(question, answer) {
  if (answer.status === "clarify") {
    state.follows = state.follows || question;
    state.situation = answer.situation;
  } else {
    state.follows = null; state.situation = null;
  }
  show("clarifying", state.follows !== null);
  show("restart", state.follows !== null);
  $("follows").textContent = state.follows || "";
  $("clarification").textContent = answer.status === "clarify" ? answer.answer : "";
  $("question-label").textContent = state.follows ? "Your reply" : "Question";
  $("ask").textContent = state.follows ? "Reply" : "Ask";
}

async function ask(event) {
  event.preventDefault();
  const question = $("question").value.trim();
  if (!question) return;
  const input = { question };
  if (state.follows) { input.follows = state.follows; input.situation = state.situation; }
  $("ask-error").textContent = ""; show("busy", true); $("ask").disabled = true;
  try {
    const { status, data } = await call("POST", "/ask/invoke", { input });
    if (status === 401) { signedOut("Your session ended; sign in again."); return; }
    if (status !== 200) { $("ask-error").textContent = problem(data, "The server answered " + status + "."); return; }
    $("asked").textContent = (state.follows ? "Your reply to “" + state.follows + "”: " : "You asked: ") + question;
    render(data.output);
    clarifying(question, data.output);
    $("question").value = "";
  } catch (e) {
    $("ask-error").textContent = "The server could not be reached: " + e.message;
  } finally {
    show("busy", false); $("ask").disabled = false;
  }
}

async function signIn(event) {
  event.preventDefault();
  const key = $("key").value.trim();
  $("key").value = "";
  const { status, data } = await call("POST", "/session", { key });
  if (status === 200) signedIn(data.name, data.csrf);
  else $("login-error").textContent = problem(data, "Sign-in failed (" + status + ").");
}

async function signOut() {
  await call("DELETE", "/session");
  signedOut("Signed out.");
}

function restart() {
  state.follows = null; state.situation = null;
  clarifying("", { status: "answered" });
  $("question").focus();
}

async function start() {
  $("login-form").addEventListener("submit", signIn);
  $("ask-form").addEventListener("submit", ask);
  $("logout").addEventListener("click", signOut);
  $("restart").addEventListener("click", restart);
  const { status, data } = await call("GET", "/session");
  if (status === 200) signedIn(data.name, data.csrf); else signedOut("");
}

document.addEventListener("DOMContentLoaded", start);
