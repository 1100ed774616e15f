// Atelier LED score displays: open this folder in the Arduino IDE and upload to an Uno or Nano.
// The whole firmware lives in src/; these two functions hand control to it. It drives its own
// UART, so do not use Serial here.
#include "src/app.h"

void setup() { app_setup(); }

void loop() { app_loop(); }
