#include "device.h"

static void put_u16(uint8_t *out, uint16_t value)
{
    out[0] = (uint8_t)(value & 0xFF);
    out[1] = (uint8_t)(value >> 8);
}

static int32_t get_i32(const uint8_t *in)
{
    uint32_t value = (uint32_t)in[0] | ((uint32_t)in[1] << 8) | ((uint32_t)in[2] << 16) |
                     ((uint32_t)in[3] << 24);
    return (int32_t)value;
}

static void count(uint16_t *counter)
{
    if (*counter != 0xFFFFu) {
        (*counter)++;
    }
}

void device_init(device_t *device, uint32_t id, uint8_t displays)
{
    device->id = id;
    device->displays = displays > MAX_DISPLAYS ? MAX_DISPLAYS : displays;
    device->synced = 0;
    device->dirty = 1;
    device->brightness = BRIGHTNESS_DEFAULT;
    device->highlight = 0;
    device->blink = 0;
    for (uint8_t i = 0; i < MAX_DISPLAYS; i++) {
        display_blank(device->cells[i]);
    }
    device->stats = (device_stats_t){0, 0, 0, 0, 0};
    frame_rx_init(&device->rx);
}

static size_t hello(const device_t *device, uint8_t seq, uint8_t *reply)
{
    uint8_t body[10] = {
        device->synced ? FLAG_SYNCED : 0,
        PROTOCOL_VERSION,
        FIRMWARE_MAJOR,
        FIRMWARE_MINOR,
        (uint8_t)(device->id & 0xFF),
        (uint8_t)((device->id >> 8) & 0xFF),
        (uint8_t)((device->id >> 16) & 0xFF),
        (uint8_t)((device->id >> 24) & 0xFF),
        device->displays,
        DISPLAY_DIGITS,
    };
    return frame_encode(MSG_HELLO, seq, body, sizeof body, reply);
}

size_t device_announce(const device_t *device, uint8_t *reply)
{
    return hello(device, 0, reply);
}

static size_t ack(const device_t *device, uint8_t seq, uint8_t *reply)
{
    uint8_t flags = device->synced ? FLAG_SYNCED : 0;
    return frame_encode(MSG_ACK, seq, &flags, 1, reply);
}

static size_t nak(device_t *device, uint8_t seq, uint8_t reason, uint8_t *reply)
{
    if (reason >= NAK_UNKNOWN_TYPE) {
        count(&device->stats.rejected);
    }
    return frame_encode(MSG_NAK, seq, &reason, 1, reply);
}

static size_t stats(const device_t *device, uint8_t seq, uint8_t *reply)
{
    uint8_t body[11];
    body[0] = device->synced ? FLAG_SYNCED : 0;
    put_u16(body + 1, device->stats.frames_ok);
    put_u16(body + 3, device->stats.crc_errors);
    put_u16(body + 5, device->stats.framing_errors);
    put_u16(body + 7, device->stats.rejected);
    put_u16(body + 9, device->stats.rx_overruns);
    return frame_encode(MSG_STATS, seq, body, sizeof body, reply);
}

static size_t scores(device_t *device, const frame_t *frame, uint8_t *reply)
{
    uint8_t n = frame->len > 0 ? frame->body[0] : 0xFF;
    if (n > MAX_DISPLAYS || frame->len != 1 + 4 * n) {
        return nak(device, frame->seq, NAK_BAD_BODY, reply);
    }
    for (uint8_t i = 0; i < device->displays; i++) {
        if (i >= n) {
            display_blank(device->cells[i]);
            continue;
        }
        int32_t score = get_i32(frame->body + 1 + 4 * i);
        if (score != SCORE_KEEP) {
            display_score(device->cells[i], score);
        }
    }
    device->dirty = 1;
    return ack(device, frame->seq, reply);
}

static size_t text(device_t *device, const frame_t *frame, uint8_t *reply)
{
    if (frame->len < 1 || frame->len > 1 + TEXT_MAX || frame->body[0] >= device->displays) {
        return nak(device, frame->seq, NAK_BAD_BODY, reply);
    }
    display_text(device->cells[frame->body[0]], frame->body + 1, (uint8_t)(frame->len - 1));
    device->dirty = 1;
    return ack(device, frame->seq, reply);
}

static size_t brightness(device_t *device, const frame_t *frame, uint8_t *reply)
{
    if (frame->len != 1 || frame->body[0] > BRIGHTNESS_MAX) {
        return nak(device, frame->seq, NAK_BAD_BODY, reply);
    }
    device->brightness = frame->body[0];
    device->dirty = 1;
    return ack(device, frame->seq, reply);
}

static size_t marks(device_t *device, const frame_t *frame, uint8_t *reply)
{
    if (frame->len != 2) {
        return nak(device, frame->seq, NAK_BAD_BODY, reply);
    }
    uint8_t mask = (uint8_t)((1u << device->displays) - 1u);
    device->highlight = frame->body[0] & mask;
    device->blink = frame->body[1] & mask;
    device->dirty = 1;
    return ack(device, frame->seq, reply);
}

static size_t handle(device_t *device, const frame_t *frame, uint8_t *reply)
{
    switch (frame->type) {
    case MSG_HELLO_REQUEST:
        if (frame->len != 0) {
            return nak(device, frame->seq, NAK_BAD_BODY, reply);
        }
        device->synced = 1;
        return hello(device, frame->seq, reply);
    case MSG_PING:
        return frame->len == 0 ? ack(device, frame->seq, reply)
                               : nak(device, frame->seq, NAK_BAD_BODY, reply);
    case MSG_STATS_REQUEST:
        return frame->len == 0 ? stats(device, frame->seq, reply)
                               : nak(device, frame->seq, NAK_BAD_BODY, reply);
    case MSG_SCORES:
        return scores(device, frame, reply);
    case MSG_TEXT:
        return text(device, frame, reply);
    case MSG_BRIGHTNESS:
        return brightness(device, frame, reply);
    case MSG_MARKS:
        return marks(device, frame, reply);
    default:
        return nak(device, frame->seq, NAK_UNKNOWN_TYPE, reply);
    }
}

size_t device_feed(device_t *device, uint8_t byte, uint8_t *reply)
{
    frame_t frame;
    switch (frame_rx_push(&device->rx, byte, &frame)) {
    case FRAME_OK:
        count(&device->stats.frames_ok);
        return handle(device, &frame, reply);
    case FRAME_ERR_CRC:
        count(&device->stats.crc_errors);
        return nak(device, 0, NAK_CRC, reply);
    case FRAME_ERR_FRAMING:
        count(&device->stats.framing_errors);
        return nak(device, 0, NAK_FRAMING, reply);
    case FRAME_ERR_TOO_LONG:
        count(&device->stats.framing_errors);
        return nak(device, 0, NAK_TOO_LONG, reply);
    case FRAME_NONE:
    default:
        return 0;
    }
}
