// The camera view: fetch the newest annotated frame again as soon as one has been shown.
const frame = document.getElementById("camera-frame");
const PAUSE_MS = 300;

function next() {
  setTimeout(() => {
    frame.src = `${frame.dataset.src}&at=${Date.now()}`;
  }, PAUSE_MS);
}

frame.addEventListener("load", next);
frame.addEventListener("error", () => setTimeout(next, 2000));
