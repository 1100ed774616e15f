/* Consistent Overhead Byte Stuffing: removes every 0x00 so that 0x00 can delimit frames. */
#ifndef ATELIER_COBS_H
#define ATELIER_COBS_H

#include <stddef.h>
#include <stdint.h>

/* Encodes len bytes into out (room for len + len / 254 + 1 bytes); returns the encoded length. */
size_t cobs_encode(const uint8_t *in, size_t len, uint8_t *out);

/* Decodes len bytes into out (room for len bytes); returns the decoded length, or -1 when the
   input holds a 0x00 or a block runs past its end. */
int cobs_decode(const uint8_t *in, size_t len, uint8_t *out);

#endif
