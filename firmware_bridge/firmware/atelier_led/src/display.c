#include "display.h"

#ifdef __AVR__
#include <avr/pgmspace.h>
#define FONT_READ(address) pgm_read_byte(address)
#else
#define PROGMEM
#define FONT_READ(address) (*(address))
#endif

#define FONT_FIRST ' '
#define FONT_LAST '_'
#define GLYPH_MINUS 0x01u

/* ' ' to '_'; lower case letters are folded onto upper case before the lookup. */
static const uint8_t FONT[FONT_LAST - FONT_FIRST + 1] PROGMEM = {
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /*  !"#$%&' */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, /* ()*+,-./ */
    0x7E, 0x30, 0x6D, 0x79, 0x33, 0x5B, 0x5F, 0x70, /* 01234567 */
    0x7F, 0x7B, 0x00, 0x00, 0x00, 0x09, 0x00, 0x00, /* 89:;<=>? */
    0x00, 0x77, 0x1F, 0x4E, 0x3D, 0x4F, 0x47, 0x5E, /* @ABCDEFG */
    0x37, 0x06, 0x3C, 0x57, 0x0E, 0x54, 0x15, 0x1D, /* HIJKLMNO */
    0x67, 0x73, 0x05, 0x5B, 0x0F, 0x3E, 0x1C, 0x2A, /* PQRSTUVW */
    0x37, 0x3B, 0x6D, 0x00, 0x00, 0x00, 0x00, 0x08, /* XYZ[\]^_ */
};

uint8_t display_glyph(uint8_t c)
{
    if (c >= 'a' && c <= 'z') {
        c = (uint8_t)(c - 'a' + 'A');
    }
    if (c < FONT_FIRST || c > FONT_LAST) {
        return 0;
    }
    return FONT_READ(&FONT[c - FONT_FIRST]);
}

void display_blank(uint8_t cells[DISPLAY_DIGITS])
{
    for (uint8_t i = 0; i < DISPLAY_DIGITS; i++) {
        cells[i] = 0;
    }
}

void display_text(uint8_t cells[DISPLAY_DIGITS], const uint8_t *text, uint8_t len)
{
    uint8_t used = 0;
    display_blank(cells);
    for (uint8_t i = 0; i < len; i++) {
        if (text[i] == '.' && used > 0 && !(cells[used - 1] & SEGMENT_DP)) {
            cells[used - 1] |= SEGMENT_DP;
        } else if (used < DISPLAY_DIGITS) {
            cells[used++] = text[i] == '.' ? SEGMENT_DP : display_glyph(text[i]);
        }
    }
}

void display_score(uint8_t cells[DISPLAY_DIGITS], int32_t score)
{
    if (score > 99999999L || score < -9999999L) {
        for (uint8_t i = 0; i < DISPLAY_DIGITS; i++) {
            cells[i] = GLYPH_MINUS;
        }
        return;
    }
    display_blank(cells);
    uint32_t magnitude = score < 0 ? (uint32_t)(-score) : (uint32_t)score;
    uint8_t pos = DISPLAY_DIGITS;
    do {
        cells[--pos] = display_glyph((uint8_t)('0' + magnitude % 10u));
        magnitude /= 10u;
    } while (magnitude != 0);
    if (score < 0) {
        cells[--pos] = GLYPH_MINUS;
    }
}
