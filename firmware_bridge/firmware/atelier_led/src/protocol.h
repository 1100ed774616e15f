/* Message types, flags and reasons of the display protocol (docs/led-displays.md). */
#ifndef ATELIER_PROTOCOL_H
#define ATELIER_PROTOCOL_H

#define PROTOCOL_VERSION 1
#define FIRMWARE_MAJOR 1
#define FIRMWARE_MINOR 0

/* Host to device; every one is answered with the same sequence number. */
#define MSG_HELLO_REQUEST 0x01 /* -> HELLO */
#define MSG_PING 0x02          /* -> ACK */
#define MSG_STATS_REQUEST 0x03 /* -> STATS */
#define MSG_SCORES 0x10        /* count, count x int32 LE -> ACK */
#define MSG_TEXT 0x11          /* display, up to 16 characters -> ACK */
#define MSG_BRIGHTNESS 0x12    /* level 0..15 -> ACK */
#define MSG_MARKS 0x13         /* highlight mask, blink mask -> ACK */

/* Device to host. */
#define MSG_ACK 0x80   /* flags */
#define MSG_HELLO 0x81 /* flags, protocol, major, minor, id uint32 LE, displays, digits */
#define MSG_NAK 0x82   /* reason */
#define MSG_STATS 0x83 /* flags, five uint16 LE counters */

/* Flags byte of ACK, HELLO and STATS. */
#define FLAG_SYNCED 0x01 /* a HELLO_REQUEST arrived since the device started */

/* NAK reasons; for the first three the sequence number is 0 since it could not be trusted. */
#define NAK_CRC 1
#define NAK_FRAMING 2
#define NAK_TOO_LONG 3
#define NAK_UNKNOWN_TYPE 4
#define NAK_BAD_BODY 5

/* A SCORES entry that leaves its display as it is (it shows text). */
#define SCORE_KEEP ((int32_t)0x80000000UL)

#define MAX_DISPLAYS 4
#define TEXT_MAX 16
#define BRIGHTNESS_MAX 15
#define BRIGHTNESS_DEFAULT 8

#endif
