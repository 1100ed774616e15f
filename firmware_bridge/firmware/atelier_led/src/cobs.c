#include "cobs.h"

size_t cobs_encode(const uint8_t *in, size_t len, uint8_t *out)
{
    size_t code_at = 0;
    size_t write = 1;
    uint8_t code = 1;
    for (size_t read = 0; read < len; read++) {
        if (in[read] == 0) {
            out[code_at] = code;
            code = 1;
            code_at = write++;
        } else {
            out[write++] = in[read];
            code++;
            if (code == 0xFF && read + 1 < len) {
                out[code_at] = code;
                code = 1;
                code_at = write++;
            }
        }
    }
    out[code_at] = code;
    return write;
}

int cobs_decode(const uint8_t *in, size_t len, uint8_t *out)
{
    size_t read = 0;
    size_t write = 0;
    while (read < len) {
        uint8_t code = in[read++];
        if (code == 0) {
            return -1;
        }
        for (uint8_t i = 1; i < code; i++) {
            if (read >= len || in[read] == 0) {
                return -1;
            }
            out[write++] = in[read++];
        }
        if (code != 0xFF && read < len) {
            out[write++] = 0;
        }
    }
    return (int)write;
}
