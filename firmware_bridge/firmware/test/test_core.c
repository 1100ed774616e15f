/* Runs the protocol core, built with the host's gcc, against the shared test vectors.

   usage: test_core VECTORS.txt    (prints "N passed, N failed"; exit status 1 on any failure) */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cobs.h"
#include "crc16.h"
#include "device.h"
#include "display.h"
#include "frame.h"

#define MAX_BYTES 1024

static int passed;
static int failed;
static int line_number;

static size_t parse_hex(const char *text, uint8_t *out)
{
    if (strcmp(text, "-") == 0) {
        return 0;
    }
    size_t len = strlen(text) / 2;
    for (size_t i = 0; i < len; i++) {
        unsigned value;
        sscanf(text + 2 * i, "%2x", &value);
        out[i] = (uint8_t)value;
    }
    return len;
}

static void check(int ok, const char *what)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("line %d: %s\n", line_number, what);
    }
}

static int same(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len)
{
    return a_len == b_len && (a_len == 0 || memcmp(a, b, a_len) == 0);
}

static void test_cobs(char *data_hex, char *encoded_hex)
{
    uint8_t data[MAX_BYTES], encoded[MAX_BYTES], out[MAX_BYTES];
    size_t data_len = parse_hex(data_hex, data);
    size_t encoded_len = parse_hex(encoded_hex, encoded);
    size_t len = cobs_encode(data, data_len, out);
    check(same(out, len, encoded, encoded_len), "cobs encode");
    int decoded = cobs_decode(encoded, encoded_len, out);
    check(decoded >= 0 && same(out, (size_t)decoded, data, data_len), "cobs decode");
}

static void test_frame(char *type, char *seq, char *body_hex, char *wire_hex)
{
    uint8_t body[MAX_BYTES], wire[MAX_BYTES], out[FRAME_MAX_WIRE];
    size_t body_len = parse_hex(body_hex, body);
    size_t wire_len = parse_hex(wire_hex, wire);
    uint8_t t = (uint8_t)strtoul(type, NULL, 16);
    uint8_t s = (uint8_t)strtoul(seq, NULL, 16);
    size_t len = frame_encode(t, s, body, (uint8_t)body_len, out);
    check(same(out, len, wire, wire_len), "frame encode");
    frame_rx_t rx;
    frame_t frame;
    frame_rx_init(&rx);
    frame_result_t result = FRAME_NONE;
    for (size_t i = 0; i < wire_len; i++) {
        frame_result_t r = frame_rx_push(&rx, wire[i], &frame);
        if (r != FRAME_NONE) {
            result = r;
        }
    }
    check(result == FRAME_OK && frame.type == t && frame.seq == s &&
              same(frame.body, frame.len, body, body_len),
          "frame decode");
}

static void test_cells(const uint8_t *cells, char *expected_hex, const char *what)
{
    uint8_t expected[MAX_BYTES];
    size_t len = parse_hex(expected_hex, expected);
    check(same(cells, DISPLAY_DIGITS, expected, len), what);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s VECTORS.txt\n", argv[0]);
        return 2;
    }
    FILE *file = fopen(argv[1], "r");
    if (file == NULL) {
        perror(argv[1]);
        return 2;
    }
    static char line[8192];
    device_t device;
    while (fgets(line, sizeof line, file) != NULL) {
        line_number++;
        char *words[6] = {0};
        int count = 0;
        for (char *word = strtok(line, " \r\n"); word != NULL && count < 6;
             word = strtok(NULL, " \r\n")) {
            words[count++] = word;
        }
        if (count == 0 || words[0][0] == '#') {
            continue;
        }
        uint8_t a[MAX_BYTES], b[MAX_BYTES], cells[DISPLAY_DIGITS];
        const char *kind = words[0];
        if (strcmp(kind, "cobs") == 0) {
            test_cobs(words[1], words[2]);
        } else if (strcmp(kind, "cobs-bad") == 0) {
            size_t len = parse_hex(words[1], a);
            check(cobs_decode(a, len, b) < 0, "cobs rejects");
        } else if (strcmp(kind, "crc") == 0) {
            size_t len = parse_hex(words[1], a);
            check(crc16(a, len) == (uint16_t)strtoul(words[2], NULL, 16), "crc");
        } else if (strcmp(kind, "frame") == 0) {
            test_frame(words[1], words[2], words[3], words[4]);
        } else if (strcmp(kind, "text") == 0) {
            size_t len = parse_hex(words[1], a);
            display_text(cells, a, (uint8_t)len);
            test_cells(cells, words[2], "text");
        } else if (strcmp(kind, "score") == 0) {
            display_score(cells, (int32_t)strtol(words[1], NULL, 10));
            test_cells(cells, words[2], "score");
        } else if (strcmp(kind, "device") == 0) {
            device_init(&device, (uint32_t)strtoul(words[2], NULL, 16),
                        (uint8_t)strtoul(words[3], NULL, 10));
        } else if (strcmp(kind, "announce") == 0) {
            size_t expected = parse_hex(words[1], a);
            size_t len = device_announce(&device, b);
            check(same(b, len, a, expected), "announce");
        } else if (strcmp(kind, "send") == 0) {
            size_t in_len = parse_hex(words[1], a);
            uint8_t expected[MAX_BYTES], reply[DEVICE_REPLY_MAX];
            size_t expected_len = parse_hex(words[2], expected);
            size_t out_len = 0;
            for (size_t i = 0; i < in_len; i++) {
                size_t len = device_feed(&device, a[i], reply);
                memcpy(b + out_len, reply, len);
                out_len += len;
            }
            check(same(b, out_len, expected, expected_len), "device reply");
        } else if (strcmp(kind, "cells") == 0) {
            test_cells(device.cells[strtoul(words[1], NULL, 10)], words[2], "device cells");
        } else if (strcmp(kind, "looks") == 0) {
            check(device.brightness == strtoul(words[1], NULL, 10) &&
                      device.highlight == strtoul(words[2], NULL, 16) &&
                      device.blink == strtoul(words[3], NULL, 16),
                  "device looks");
        } else if (strcmp(kind, "end") != 0) {
            check(0, "unknown vector kind");
        }
    }
    fclose(file);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 && passed > 0 ? 0 : 1;
}
