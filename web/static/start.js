// The start form shows the options of the chosen game only.
const game = document.getElementById("game");
const show = () => {
  for (const set of document.querySelectorAll("fieldset.options")) {
    set.hidden = set.dataset.game !== game.value;
    set.disabled = set.hidden;
  }
};
game.addEventListener("change", show);
show();
