// Shared by the table pages: the page's data, calls to the JSON API, and the live stream.

export const page = document.getElementById("page").dataset;

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

// A call to the API; changes send the page's join token. Answers {ok, status, data}.
export async function api(url, { method = "GET", json, form } = {}) {
  const headers = {};
  if (page.token) headers["X-Table-Token"] = page.token;
  let body;
  if (json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(json);
  } else if (form !== undefined) {
    body = form;
  }
  const response = await fetch(url, { method, headers, body });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = { error: `${response.status} ${response.statusText}` };
  }
  return { ok: response.ok, status: response.status, data };
}

// The table's live stream. Each message is {event, scores?}; the stream resumes after the last
// event seen: the browser sends Last-Event-ID when it reconnects by itself, and a stream closed
// while the page was hidden (a phone asleep) reopens after the last id when it shows again.
export function live(onMessage) {
  let last = Number(page.lastEvent || 0);
  let source = null;
  const dot = document.getElementById("live");
  const open = () => {
    source = new EventSource(`${page.events}?after=${last}`);
    source.addEventListener("change", (message) => {
      last = Number(message.lastEventId);
      onMessage(JSON.parse(message.data));
    });
    source.addEventListener("open", () => dot && dot.classList.add("on"));
    source.addEventListener("error", () => dot && dot.classList.remove("on"));
  };
  const close = () => {
    if (source) source.close();
    source = null;
    if (dot) dot.classList.remove("on");
  };
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) close();
    else if (!source) open();
  });
  open();
  return { close, open, last: () => last };
}
