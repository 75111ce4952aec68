/* The reference for tools/bench-keys.sh: the plainest fast key listing a C programmer writes
 * with hiredis, to measure `sluice-cli keys` against in the same run.
 *
 *   bench-keys-kit PORT MATCH ttl
 *   bench-keys-kit PORT MATCH state CAP PREFIX=LAYOUT...
 *
 * Per page: SCAN cursor MATCH m COUNT 1000 (one round trip), then one pipeline for the page's
 * keys (a second round trip):
 *   ttl    TYPE and PTTL of every key
 *   state  TIME, then per key TYPE, PTTL and the value reads of Sluice's reader
 *          (core/keys/keyreader.cpp, plain commands), chosen by the key's prefix as Sluice
 *          chooses them by the key's rule; a key of no prefix gets TYPE and PTTL only:
 *            h:F1,F2,..  HMGET key F1 F2 .., then PTTL
 *            s           STRLEN, GETRANGE key 0 CAP-1, then PTTL
 *            z:WINDOW_US ZCARD, ZCOUNT key (lo +inf, ZRANGEBYSCORE key (lo +inf WITHSCORES
 *                        LIMIT 0 1, ZRANGE key -1 -1 WITHSCORES, then PTTL
 *                        (lo = the page's TIME - WINDOW_US)
 * Every reply is read and looked at (the keys without TTL are counted); nothing is printed but
 * one line: keys, keys without TTL, pages, milliseconds. */
#include <hiredis/hiredis.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_PREFIXES 16
#define MAX_FIELDS 8

struct layout
{
    const char *prefix;
    size_t prefix_len;
    char kind; /* 'h', 's', 'z' */
    const char *fields[MAX_FIELDS];
    size_t nfields;
    long long window_us;
};

static void die(const char *what, redisContext *c)
{
    fprintf(stderr, "bench-keys-kit: %s: %s\n", what, c && c->err ? c->errstr : "bad reply");
    exit(1);
}

static redisReply *next_reply(redisContext *c)
{
    void *r = NULL;
    if (redisGetReply(c, &r) != REDIS_OK || r == NULL) {
        die("reading a reply", c);
    }
    return r;
}

static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void parse_layout(const char *arg, struct layout *l)
{
    const char *eq = strrchr(arg, '=');
    if (eq == NULL || eq[1] == '\0') {
        fprintf(stderr, "bench-keys-kit: '%s': expected PREFIX=h:F1,F2 | s | z:WINDOW_US\n", arg);
        exit(2);
    }
    memset(l, 0, sizeof *l);
    l->prefix = arg;
    l->prefix_len = (size_t)(eq - arg);
    l->kind = eq[1];
    if (l->kind == 'h') {
        char *list = strdup(eq + 3);
        for (char *f = strtok(list, ","); f != NULL && l->nfields < MAX_FIELDS;
             f = strtok(NULL, ",")) {
            l->fields[l->nfields++] = f;
        }
    } else if (l->kind == 'z') {
        l->window_us = atoll(eq + 3);
    } else if (l->kind != 's') {
        fprintf(stderr, "bench-keys-kit: '%s': unknown layout '%c'\n", arg, l->kind);
        exit(2);
    }
}

static const struct layout *layout_of(const struct layout *ls, size_t n, const char *key,
                                      size_t len)
{
    for (size_t i = 0; i < n; ++i) {
        if (len >= ls[i].prefix_len && memcmp(key, ls[i].prefix, ls[i].prefix_len) == 0) {
            return &ls[i];
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 4 || (strcmp(argv[3], "ttl") != 0 && strcmp(argv[3], "state") != 0) ||
        (strcmp(argv[3], "state") == 0 && argc < 5)) {
        fprintf(stderr, "usage: bench-keys-kit PORT MATCH ttl\n"
                        "       bench-keys-kit PORT MATCH state CAP PREFIX=LAYOUT...\n");
        return 2;
    }
    const int state = strcmp(argv[3], "state") == 0;
    const char *match = argv[2];
    char cap_end[32] = "255";
    struct layout layouts[MAX_PREFIXES];
    size_t nlayouts = 0;
    if (state) {
        snprintf(cap_end, sizeof cap_end, "%lld", atoll(argv[4]) - 1);
        for (int i = 5; i < argc && nlayouts < MAX_PREFIXES; ++i) {
            parse_layout(argv[i], &layouts[nlayouts++]);
        }
    }
    redisContext *c = redisConnect("127.0.0.1", atoi(argv[1]));
    if (c == NULL || c->err) {
        die("connecting", c);
    }

    const long long start = now_ms();
    long long keys = 0, no_ttl = 0, pages = 0;
    char cursor[32] = "0";
    do {
        redisReply *scan = redisCommand(c, "SCAN %s MATCH %s COUNT 1000", cursor, match);
        if (scan == NULL || scan->type != REDIS_REPLY_ARRAY || scan->elements != 2) {
            die("SCAN", c);
        }
        snprintf(cursor, sizeof cursor, "%s", scan->element[0]->str);
        ++pages;
        const redisReply *list = scan->element[1];
        long long lo = 0;
        if (state) {
            redisAppendCommand(c, "TIME");
        }
        /* Each key's layout, in the order the replies come back. */
        const struct layout **of = calloc(list->elements + 1, sizeof *of);
        for (size_t i = 0; i < list->elements; ++i) {
            const char *k = list->element[i]->str;
            const size_t kl = list->element[i]->len;
            redisAppendCommand(c, "TYPE %b", k, kl);
            redisAppendCommand(c, "PTTL %b", k, kl);
            const struct layout *l = state ? layout_of(layouts, nlayouts, k, kl) : NULL;
            of[i] = l;
            if (l == NULL) {
                continue;
            }
            if (l->kind == 'h') {
                const char *av[2 + MAX_FIELDS];
                size_t al[2 + MAX_FIELDS];
                av[0] = "HMGET";
                al[0] = 5;
                av[1] = k;
                al[1] = kl;
                for (size_t f = 0; f < l->nfields; ++f) {
                    av[2 + f] = l->fields[f];
                    al[2 + f] = strlen(l->fields[f]);
                }
                redisAppendCommandArgv(c, (int)(2 + l->nfields), av, al);
            } else if (l->kind == 's') {
                redisAppendCommand(c, "STRLEN %b", k, kl);
                redisAppendCommand(c, "GETRANGE %b 0 %s", k, kl, cap_end);
            } else {
                /* lo from the page's TIME: known only once it is read, so an estimate from the
                 * local clock, as Sluice estimates the server's. */
                if (lo == 0) {
                    struct timespec t;
                    clock_gettime(CLOCK_REALTIME, &t);
                    lo = (long long)t.tv_sec * 1000000 + t.tv_nsec / 1000 - l->window_us;
                }
                char open[32];
                snprintf(open, sizeof open, "(%lld", lo);
                redisAppendCommand(c, "ZCARD %b", k, kl);
                redisAppendCommand(c, "ZCOUNT %b %s +inf", k, kl, open);
                redisAppendCommand(c, "ZRANGEBYSCORE %b %s +inf WITHSCORES LIMIT 0 1", k, kl,
                                   open);
                redisAppendCommand(c, "ZRANGE %b -1 -1 WITHSCORES", k, kl);
            }
            redisAppendCommand(c, "PTTL %b", k, kl);
        }
        if (state) {
            freeReplyObject(next_reply(c));
        }
        for (size_t i = 0; i < list->elements; ++i) {
            redisReply *type = next_reply(c);
            redisReply *pttl = next_reply(c);
            if (type->type != REDIS_REPLY_STATUS || pttl->type != REDIS_REPLY_INTEGER) {
                die("TYPE/PTTL", c);
            }
            no_ttl += pttl->integer == -1;
            keys += pttl->integer != -2;
            freeReplyObject(type);
            freeReplyObject(pttl);
            const int more = of[i] == NULL ? 0 : of[i]->kind == 'h' ? 2 : of[i]->kind == 's' ? 3 : 5;
            for (int m = 0; m < more; ++m) {
                redisReply *r = next_reply(c);
                if (r->type == REDIS_REPLY_ERROR) {
                    die(r->str, NULL);
                }
                freeReplyObject(r);
            }
        }
        free(of);
        freeReplyObject(scan);
    } while (strcmp(cursor, "0") != 0);
    printf("%lld keys, %lld without TTL, %lld SCAN pages, %lld ms\n", keys, no_ttl, pages,
           now_ms() - start);
    redisFree(c);
    return 0;
}
