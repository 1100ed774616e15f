/* CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no final xor. */
#ifndef ATELIER_CRC16_H
#define ATELIER_CRC16_H

#include <stddef.h>
#include <stdint.h>

uint16_t crc16_update(uint16_t crc, uint8_t byte);
uint16_t crc16(const uint8_t *data, size_t len);

#endif
