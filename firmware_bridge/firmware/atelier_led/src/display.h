/* What one 8-digit seven-segment display shows: cells[0] is the leftmost digit.

   A cell is a MAX7219 no-decode pattern: bit 7 the decimal point, bits 6..0 segments A..G. */
#ifndef ATELIER_DISPLAY_H
#define ATELIER_DISPLAY_H

#include <stdint.h>

#define DISPLAY_DIGITS 8
#define SEGMENT_DP 0x80u

/* The pattern for one character; letters ignore case, characters without a glyph are blank. */
uint8_t display_glyph(uint8_t c);

/* Left-aligned text; a '.' lights the decimal point of the character before it. */
void display_text(uint8_t cells[DISPLAY_DIGITS], const uint8_t *text, uint8_t len);

/* A right-aligned decimal score; one that does not fit in 8 digits shows eight dashes. */
void display_score(uint8_t cells[DISPLAY_DIGITS], int32_t score);

void display_blank(uint8_t cells[DISPLAY_DIGITS]);

#endif
