/* Runs the firmware image in simavr, in real time, as if it were a board on a USB cable.

   usage: atelier_sim FIRMWARE.elf LINK

   The ATmega328P's UART is bridged to a pseudo-terminal; LINK is kept as a symbolic link to it,
   the way /dev/serial/by-id/ names a real board. Bytes reach the UART no faster than 115200 baud
   allows. Every rising edge of the MAX7219 LOAD line (PB2) is reported with the SPI bytes shifted
   since it fell.

   Standard output, one event a line (simavr's own chatter never starts with '@'):
     @pty PATH                     a pseudo-terminal is ready (at start and after each replug)
     @latch NANOSECONDS HEXBYTES   LOAD rose; the time is CLOCK_MONOTONIC
     @reset                        the microcontroller restarted because it was asked to
   Commands on standard input, one a line:
     reset                         restart the microcontroller now
     reset-after N                 restart it once N more bytes have reached its UART
     unplug                        remove the pseudo-terminal and stop the microcontroller
     replug                        a new pseudo-terminal behind LINK, and a power-on restart
     quit                          end (so does the end of standard input) */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "avr_ioport.h"
#include "avr_spi.h"
#include "avr_uart.h"
#include "sim_avr.h"
#include "sim_elf.h"

#define FREQUENCY 16000000UL
#define BAUD 115200UL
/* simavr's UART counts start, 8 data, parity and stop bits; feeding at that pace never overruns. */
#define BYTE_NS (11ULL * 1000000000ULL / BAUD)
#define INSTRUCTIONS_PER_SLICE 1000
#define MAX_LAG_NS 20000000ULL

typedef struct {
    avr_t *avr;
    const char *link;
    int master;
    int slave;
    int plugged;
    uint8_t spi[64];
    size_t spi_len;
    uint8_t load;
    long reset_after;
    uint8_t pending[256];
    size_t pending_len;
    size_t pending_at;
    avr_irq_t *uart_in;
    avr_irq_t *spi_in;
} sim_t;

static uint64_t monotonic_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000ULL + (uint64_t)now.tv_nsec;
}

static void on_uart_out(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    sim_t *sim = param;
    uint8_t byte = (uint8_t)value;
    if (sim->plugged && write(sim->master, &byte, 1) != 1) {
        /* Nobody reads the port and its buffer is full: the byte is lost, as on a real cable. */
    }
}

static void on_spi_out(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    sim_t *sim = param;
    if (sim->spi_len < sizeof sim->spi) {
        sim->spi[sim->spi_len++] = (uint8_t)value;
    }
    /* Clock a byte back on MISO (the MAX7219 has none): newer simavr versions set SPIF only then. */
    avr_raise_irq(sim->spi_in, 0);
}

static void on_load(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    sim_t *sim = param;
    uint8_t level = value ? 1 : 0;
    if (level && !sim->load) {
        printf("@latch %llu ", (unsigned long long)monotonic_ns());
        for (size_t i = 0; i < sim->spi_len; i++) {
            printf("%02x", sim->spi[i]);
        }
        printf("\n");
        fflush(stdout);
    }
    if (level != sim->load) {
        sim->spi_len = 0;
    }
    sim->load = level;
}

static void restart(sim_t *sim)
{
    avr_reset(sim->avr);
    sim->spi_len = 0;
    sim->load = 0;
    printf("@reset\n");
    fflush(stdout);
}

static int plug(sim_t *sim)
{
    char name[128];
    struct termios raw;
    if (openpty(&sim->master, &sim->slave, name, NULL, NULL) != 0) {
        perror("openpty");
        return -1;
    }
    tcgetattr(sim->slave, &raw);
    cfmakeraw(&raw);
    tcsetattr(sim->slave, TCSANOW, &raw);
    fcntl(sim->master, F_SETFL, fcntl(sim->master, F_GETFL) | O_NONBLOCK);
    unlink(sim->link);
    if (symlink(name, sim->link) != 0) {
        perror("symlink");
        return -1;
    }
    sim->plugged = 1;
    sim->pending_len = sim->pending_at = 0;
    printf("@pty %s\n", name);
    fflush(stdout);
    return 0;
}

static void unplug(sim_t *sim)
{
    if (!sim->plugged) {
        return;
    }
    unlink(sim->link);
    close(sim->master);
    close(sim->slave);
    sim->plugged = 0;
}

/* Reads and runs the commands waiting on standard input; returns 0 when it is time to quit. */
static int commands(sim_t *sim, char *line, size_t *used, size_t size)
{
    ssize_t got = read(STDIN_FILENO, line + *used, size - 1 - *used);
    if (got == 0) {
        return 0;
    }
    if (got < 0) {
        return errno == EAGAIN || errno == EINTR;
    }
    *used += (size_t)got;
    line[*used] = 0;
    char *end;
    while ((end = strchr(line, '\n')) != NULL) {
        *end = 0;
        long count;
        if (strcmp(line, "quit") == 0) {
            return 0;
        } else if (strcmp(line, "reset") == 0) {
            restart(sim);
        } else if (sscanf(line, "reset-after %ld", &count) == 1) {
            sim->reset_after = count;
        } else if (strcmp(line, "unplug") == 0) {
            unplug(sim);
        } else if (strcmp(line, "replug") == 0) {
            if (!sim->plugged && plug(sim) == 0) {
                restart(sim);
            }
        } else {
            fprintf(stderr, "atelier_sim: unknown command '%s'\n", line);
        }
        size_t rest = *used - (size_t)(end + 1 - line);
        memmove(line, end + 1, rest + 1);
        *used = rest;
    }
    return 1;
}

static void read_port(sim_t *sim)
{
    if (!sim->plugged || sim->pending_at != sim->pending_len) {
        return;
    }
    ssize_t got = read(sim->master, sim->pending, sizeof sim->pending);
    sim->pending_len = got > 0 ? (size_t)got : 0;
    sim->pending_at = 0;
}

/* Hands the next waiting byte to the UART once the wire could have carried it. */
static void feed_uart(sim_t *sim, uint64_t sim_ns, uint64_t *next_byte_ns)
{
    if (!sim->plugged || sim_ns < *next_byte_ns) {
        return;
    }
    if (sim->pending_at == sim->pending_len) {
        return;
    }
    avr_raise_irq(sim->uart_in, sim->pending[sim->pending_at++]);
    *next_byte_ns = sim_ns + BYTE_NS;
    if (sim->reset_after > 0 && --sim->reset_after == 0) {
        restart(sim);
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s FIRMWARE.elf LINK\n", argv[0]);
        return 2;
    }
    elf_firmware_t firmware;
    memset(&firmware, 0, sizeof firmware);
    if (elf_read_firmware(argv[1], &firmware) != 0) {
        fprintf(stderr, "atelier_sim: cannot read %s\n", argv[1]);
        return 2;
    }
    sim_t sim;
    memset(&sim, 0, sizeof sim);
    sim.link = argv[2];
    sim.avr = avr_make_mcu_by_name("atmega328p");
    if (sim.avr == NULL) {
        return 1;
    }
    avr_init(sim.avr);
    avr_load_firmware(sim.avr, &firmware);
    sim.avr->frequency = FREQUENCY;

    uint32_t flags = 0; /* no console echo, no sleeping in the UART polling path */
    avr_ioctl(sim.avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    sim.uart_in = avr_io_getirq(sim.avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(sim.avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
                            on_uart_out, &sim);
    sim.spi_in = avr_io_getirq(sim.avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(sim.avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_OUTPUT),
                            on_spi_out, &sim);
    avr_irq_register_notify(avr_io_getirq(sim.avr, AVR_IOCTL_IOPORT_GETIRQ('B'), IOPORT_IRQ_PIN2),
                            on_load, &sim);

    fcntl(STDIN_FILENO, F_SETFL, fcntl(STDIN_FILENO, F_GETFL) | O_NONBLOCK);
    if (plug(&sim) != 0) {
        return 1;
    }
    char line[256];
    size_t used = 0;
    uint64_t start = monotonic_ns();
    uint64_t sim_cycles = 0;
    uint64_t next_byte_ns = 0;
    int state = cpu_Running;
    while (state != cpu_Done && state != cpu_Crashed) {
        if (!commands(&sim, line, &used, sizeof line)) {
            break;
        }
        if (!sim.plugged) {
            usleep(1000);
            start = monotonic_ns() - sim_cycles * 1000000000ULL / FREQUENCY;
            continue;
        }
        read_port(&sim);
        for (int i = 0; i < INSTRUCTIONS_PER_SLICE && state != cpu_Done && state != cpu_Crashed;
             i++) {
            avr_cycle_count_t before = sim.avr->cycle;
            state = avr_run(sim.avr);
            if (sim.avr->cycle > before) {
                sim_cycles += sim.avr->cycle - before;
            }
            uint64_t sim_ns = sim_cycles * 1000000000ULL / FREQUENCY;
            feed_uart(&sim, sim_ns, &next_byte_ns);
        }
        /* Keep simulated time on the wall clock: sleep when ahead, forget lag we cannot win back. */
        uint64_t sim_ns = sim_cycles * 1000000000ULL / FREQUENCY;
        uint64_t wall_ns = monotonic_ns() - start;
        if (sim_ns > wall_ns + 200000ULL) {
            usleep((useconds_t)((sim_ns - wall_ns) / 1000ULL));
        } else if (wall_ns > sim_ns + MAX_LAG_NS) {
            start = monotonic_ns() - sim_ns;
        }
    }
    unplug(&sim);
    return state == cpu_Crashed ? 1 : 0;
}
