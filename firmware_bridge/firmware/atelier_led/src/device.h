/* The device side of the protocol: bytes in, reply bytes out, and what each display shows.

   Pure C without hardware access, so the firmware and the host unit tests run the same code. */
#ifndef ATELIER_DEVICE_H
#define ATELIER_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "display.h"
#include "frame.h"
#include "protocol.h"

typedef struct {
    uint16_t frames_ok;
    uint16_t crc_errors;
    uint16_t framing_errors; /* bad COBS, too short or too long */
    uint16_t rejected;       /* valid frames refused: unknown type or bad body */
    uint16_t rx_overruns;    /* bytes lost because the receive buffer was full */
} device_stats_t;

typedef struct {
    uint32_t id;
    uint8_t displays;
    uint8_t synced;
    uint8_t dirty; /* the displays changed since the firmware last wrote them */
    uint8_t brightness;
    uint8_t highlight;
    uint8_t blink;
    uint8_t cells[MAX_DISPLAYS][DISPLAY_DIGITS];
    device_stats_t stats;
    frame_rx_t rx;
} device_t;

#define DEVICE_REPLY_MAX FRAME_MAX_WIRE

void device_init(device_t *device, uint32_t id, uint8_t displays);

/* The HELLO a device sends by itself when it starts; returns its length. */
size_t device_announce(const device_t *device, uint8_t *reply);

/* Feeds one received byte; returns the length of the reply written to reply (0 for none). */
size_t device_feed(device_t *device, uint8_t byte, uint8_t *reply);

#endif
