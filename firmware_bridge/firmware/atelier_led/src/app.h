/* The firmware on an ATmega328P: UART at 115200 baud, a chain of MAX7219 display drivers on SPI.

   app_setup() once, then app_loop() forever: main.c does that for the avr-gcc build, the
   Arduino sketch calls them from setup() and loop(). */
#ifndef ATELIER_APP_H
#define ATELIER_APP_H

#ifdef __cplusplus
extern "C" {
#endif

void app_setup(void);
void app_loop(void);

#ifdef __cplusplus
}
#endif

#endif
