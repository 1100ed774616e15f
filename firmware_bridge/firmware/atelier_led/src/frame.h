/* Frames on the wire: 0x00, COBS(type, seq, body..., crc_hi, crc_lo), 0x00.

   The CRC (crc16.h) covers type, seq and body. A frame is at most FRAME_MAX_WIRE bytes with both
   delimiters, so one whole frame always fits a 64-byte UART receive buffer. */
#ifndef ATELIER_FRAME_H
#define ATELIER_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define FRAME_MAX_BODY 57
#define FRAME_MAX_RAW (FRAME_MAX_BODY + 4)    /* type, seq, body, two CRC bytes */
#define FRAME_MAX_ENCODED (FRAME_MAX_RAW + 1) /* COBS adds one byte below 254 */
#define FRAME_MAX_WIRE (FRAME_MAX_ENCODED + 2)

typedef struct {
    uint8_t type;
    uint8_t seq;
    uint8_t len;
    uint8_t body[FRAME_MAX_BODY];
} frame_t;

/* What one received byte completed. */
typedef enum {
    FRAME_NONE = 0,      /* nothing yet (or an empty frame between two delimiters) */
    FRAME_OK,            /* a valid frame is in *out */
    FRAME_ERR_CRC,       /* the CRC did not match */
    FRAME_ERR_FRAMING,   /* bad COBS, or too short to hold type, seq and CRC */
    FRAME_ERR_TOO_LONG   /* more bytes than any frame may hold before the delimiter */
} frame_result_t;

typedef struct {
    uint8_t buf[FRAME_MAX_ENCODED];
    uint8_t len;
    uint8_t overflow;
} frame_rx_t;

/* Writes the whole frame, both delimiters included, into wire (FRAME_MAX_WIRE bytes) and returns
   its length; len must be at most FRAME_MAX_BODY. */
size_t frame_encode(uint8_t type, uint8_t seq, const uint8_t *body, uint8_t len, uint8_t *wire);

void frame_rx_init(frame_rx_t *rx);

/* Feeds one received byte; a delimiter ends the frame and resynchronises after any garbage. */
frame_result_t frame_rx_push(frame_rx_t *rx, uint8_t byte, frame_t *out);

#endif
