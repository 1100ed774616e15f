// The seat this phone plays at, remembered on the phone once a player allowed it to join:
// {table, seat, name, game, token}. One seat at a time; leaving forgets it.

const KEY = "atelier.seat";

export function recall() {
  try {
    const seat = JSON.parse(localStorage.getItem(KEY) || "null");
    return seat && seat.table && seat.token ? seat : null;
  } catch {
    return null;
  }
}

export function remember(seat) {
  localStorage.setItem(KEY, JSON.stringify(seat));
}

export function forget() {
  localStorage.removeItem(KEY);
}

export function seatLink(seat) {
  return `/t/${seat.table}/seat/${seat.seat}?token=${encodeURIComponent(seat.token)}`;
}
