// The start form shows the options of the chosen game only, and as many seats as its boards.
const game = document.getElementById("game");
const show = () => {
  for (const set of document.querySelectorAll("fieldset.options")) {
    set.hidden = set.dataset.game !== game.value;
    set.disabled = set.hidden;
  }
  const seats = Number(game.selectedOptions[0].dataset.seats);
  for (const row of document.querySelectorAll(".player-row")) {
    row.hidden = Number(row.dataset.seat) > seats;
    for (const input of row.querySelectorAll("input")) input.disabled = row.hidden;
  }
};
game.addEventListener("change", show);
show();
