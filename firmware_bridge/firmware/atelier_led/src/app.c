#include "app.h"

#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/wdt.h>
#include <util/atomic.h>

#include "device.h"

#ifndef DEVICE_ID
#define DEVICE_ID 1UL
#endif
#ifndef DISPLAYS
#define DISPLAYS 4
#endif

/* 115200 baud from 16 MHz with the double-speed UART: UBRR 16, 2.1 % fast, as every Arduino. */
#define UBRR_115200 16

/* MAX7219 registers. */
#define REG_DIGIT0 0x01
#define REG_DECODE_MODE 0x09
#define REG_INTENSITY 0x0A
#define REG_SCAN_LIMIT 0x0B
#define REG_SHUTDOWN 0x0C
#define REG_DISPLAY_TEST 0x0F

/* Room for a whole frame and the start of the next while a display refresh holds the main loop. */
#define RX_RING_SIZE 128 /* powers of two */
#define RX_RING_MASK (RX_RING_SIZE - 1)
#define TX_RING_SIZE 64
#define TX_RING_MASK (TX_RING_SIZE - 1)
#define BLINK_HALF_PERIOD_MS 250
#define REFRESH_PERIOD_MS 500

/* PB2 (Arduino D10) latches the MAX7219s; PB3 (D11) MOSI drives DIN; PB5 (D13) SCK drives CLK. */
#define LOAD_PIN PB2

static device_t device;

static volatile uint8_t rx_ring[RX_RING_SIZE];
static volatile uint8_t rx_head;
static volatile uint8_t rx_tail;
static volatile uint8_t rx_lost;

static volatile uint8_t tx_ring[TX_RING_SIZE];
static volatile uint8_t tx_head;
static volatile uint8_t tx_tail;

static volatile uint16_t milliseconds;

ISR(USART_RX_vect)
{
    uint8_t byte = UDR0;
    uint8_t next = (uint8_t)((rx_head + 1) & RX_RING_MASK);
    if (next == rx_tail) {
        rx_lost++;
        return;
    }
    rx_ring[rx_head] = byte;
    rx_head = next;
}

ISR(USART_UDRE_vect)
{
    if (tx_tail == tx_head) {
        UCSR0B &= (uint8_t)~_BV(UDRIE0);
        return;
    }
    UDR0 = tx_ring[tx_tail];
    tx_tail = (uint8_t)((tx_tail + 1) & TX_RING_MASK);
}

ISR(TIMER2_COMPA_vect)
{
    milliseconds++;
}

static void uart_init(void)
{
    UBRR0H = 0;
    UBRR0L = UBRR_115200;
    UCSR0A = _BV(U2X0);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
}

/* Queues a whole reply or none of it: half a frame would only cost the host a CRC error. */
static void uart_send(const uint8_t *data, size_t len)
{
    uint8_t used = (uint8_t)((tx_head - tx_tail) & TX_RING_MASK);
    if (len > (size_t)(TX_RING_MASK - used)) {
        return;
    }
    for (size_t i = 0; i < len; i++) {
        tx_ring[tx_head] = data[i];
        tx_head = (uint8_t)((tx_head + 1) & TX_RING_MASK);
    }
    UCSR0B |= _BV(UDRIE0);
}

static void timer_init(void)
{
    /* Timer 2 (Timer 0 belongs to the Arduino core): CTC, 16 MHz / 64 / 250 = 1 kHz. */
    TCCR2A = _BV(WGM21);
    TCCR2B = _BV(CS22);
    OCR2A = 249;
    TIMSK2 = _BV(OCIE2A);
}

static void spi_init(void)
{
    DDRB |= _BV(LOAD_PIN) | _BV(PB3) | _BV(PB5);
    PORTB |= _BV(LOAD_PIN);
    /* Master, mode 0, 16 MHz / 16 = 1 MHz: slow enough for long ribbon cables between modules. */
    SPCR = _BV(SPE) | _BV(MSTR) | _BV(SPR0);
}

static void spi_write(uint8_t byte)
{
    SPDR = byte;
    while (!(SPSR & _BV(SPIF))) {
    }
}

/* One register in every MAX7219 of the chain: the first word sent ends in the last chip. */
static void write_row(uint8_t reg, const uint8_t *values)
{
    PORTB &= (uint8_t)~_BV(LOAD_PIN);
    for (uint8_t chip = device.displays; chip-- > 0;) {
        spi_write(reg);
        spi_write(values[chip]);
    }
    PORTB |= _BV(LOAD_PIN);
}

static void write_all(uint8_t reg, uint8_t value)
{
    uint8_t values[MAX_DISPLAYS];
    for (uint8_t chip = 0; chip < MAX_DISPLAYS; chip++) {
        values[chip] = value;
    }
    write_row(reg, values);
}

/* Rewrites every register: a driver upset by a glitch on a long cable heals at the next refresh.
   The shutdown register comes last, so a refresh ends when it is written. */
static void refresh(uint8_t blink_off)
{
    uint8_t values[MAX_DISPLAYS];
    write_all(REG_DISPLAY_TEST, 0);
    write_all(REG_DECODE_MODE, 0);
    write_all(REG_SCAN_LIMIT, DISPLAY_DIGITS - 1);
    for (uint8_t chip = 0; chip < device.displays; chip++) {
        values[chip] = (device.highlight & (1u << chip)) ? BRIGHTNESS_MAX : device.brightness;
    }
    write_row(REG_INTENSITY, values);
    /* Digit register 1 is the rightmost digit on the common 8-digit modules. */
    for (uint8_t digit = 0; digit < DISPLAY_DIGITS; digit++) {
        for (uint8_t chip = 0; chip < device.displays; chip++) {
            values[chip] = device.cells[chip][DISPLAY_DIGITS - 1 - digit];
        }
        write_row((uint8_t)(REG_DIGIT0 + digit), values);
    }
    for (uint8_t chip = 0; chip < device.displays; chip++) {
        values[chip] = (blink_off && (device.blink & (1u << chip))) ? 0 : 1;
    }
    write_row(REG_SHUTDOWN, values);
}

static uint16_t now_ms(void)
{
    uint16_t value;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE)
    {
        value = milliseconds;
    }
    return value;
}

static uint16_t last_refresh_ms;
static uint8_t blink_off;

void app_setup(void)
{
    MCUSR = 0;
    wdt_enable(WDTO_1S);
    device_init(&device, DEVICE_ID, DISPLAYS);
    uart_init();
    spi_init();
    timer_init();
    sei();
    uint8_t reply[DEVICE_REPLY_MAX];
    uart_send(reply, device_announce(&device, reply));
    refresh(0);
    device.dirty = 0;
    last_refresh_ms = now_ms();
}

void app_loop(void)
{
    uint8_t reply[DEVICE_REPLY_MAX];
    wdt_reset();
    while (rx_tail != rx_head) {
        uint8_t byte = rx_ring[rx_tail];
        rx_tail = (uint8_t)((rx_tail + 1) & RX_RING_MASK);
        size_t len = device_feed(&device, byte, reply);
        if (len > 0) {
            uart_send(reply, len);
        }
    }
    if (rx_lost != 0) {
        ATOMIC_BLOCK(ATOMIC_RESTORESTATE)
        {
            device.stats.rx_overruns = (uint16_t)(device.stats.rx_overruns + rx_lost);
            rx_lost = 0;
        }
    }
    uint16_t now = now_ms();
    uint8_t phase = (uint8_t)((now / BLINK_HALF_PERIOD_MS) & 1u);
    uint8_t blink_changed = device.blink != 0 && phase != blink_off;
    if (device.dirty || blink_changed || (uint16_t)(now - last_refresh_ms) >= REFRESH_PERIOD_MS) {
        blink_off = phase;
        device.dirty = 0;
        refresh(blink_off);
        last_refresh_ms = now;
    }
}
