/* Entry point of the avr-gcc build; the Arduino sketch (atelier_led/atelier_led.ino) is the other. */
#include "atelier_led/src/app.h"

int main(void)
{
    app_setup();
    for (;;) {
        app_loop();
    }
}
