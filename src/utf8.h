/* STUB header: see the real one. */
#ifndef TR_UTF8_H
#define TR_UTF8_H
#endif
