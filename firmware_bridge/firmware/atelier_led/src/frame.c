#include "frame.h"

#include <string.h>

#include "cobs.h"
#include "crc16.h"

size_t frame_encode(uint8_t type, uint8_t seq, const uint8_t *body, uint8_t len, uint8_t *wire)
{
    uint8_t raw[FRAME_MAX_RAW];
    raw[0] = type;
    raw[1] = seq;
    memcpy(raw + 2, body, len);
    uint16_t crc = crc16(raw, (size_t)len + 2);
    raw[len + 2] = (uint8_t)(crc >> 8);
    raw[len + 3] = (uint8_t)(crc & 0xFF);
    wire[0] = 0;
    size_t n = cobs_encode(raw, (size_t)len + 4, wire + 1);
    wire[n + 1] = 0;
    return n + 2;
}

void frame_rx_init(frame_rx_t *rx)
{
    rx->len = 0;
    rx->overflow = 0;
}

frame_result_t frame_rx_push(frame_rx_t *rx, uint8_t byte, frame_t *out)
{
    if (byte != 0) {
        if (rx->len < sizeof rx->buf) {
            rx->buf[rx->len++] = byte;
        } else {
            rx->overflow = 1;
        }
        return FRAME_NONE;
    }
    uint8_t len = rx->len;
    uint8_t overflow = rx->overflow;
    frame_rx_init(rx);
    if (overflow) {
        return FRAME_ERR_TOO_LONG;
    }
    if (len == 0) {
        return FRAME_NONE;
    }
    uint8_t raw[FRAME_MAX_ENCODED];
    int n = cobs_decode(rx->buf, len, raw);
    if (n < 4) {
        return FRAME_ERR_FRAMING;
    }
    uint16_t crc = crc16(raw, (size_t)n - 2);
    if (raw[n - 2] != (uint8_t)(crc >> 8) || raw[n - 1] != (uint8_t)(crc & 0xFF)) {
        return FRAME_ERR_CRC;
    }
    out->type = raw[0];
    out->seq = raw[1];
    out->len = (uint8_t)(n - 4);
    memcpy(out->body, raw + 2, out->len);
    return FRAME_OK;
}
