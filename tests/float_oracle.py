#!/usr/bin/env python3
"""float_oracle.py: checks floatrepr's output against Python's repr(float).

Reads lines "HEX16 REPR" on stdin, where HEX16 is a double's 64-bit pattern
as a hexadecimal integer and REPR is the C text for it.  Prints the first 20
mismatches, then "float repr: N passed, M failed"; exits 0 only when no line
failed.  Exits 77 (skipped) when this Python does not print the shortest
repr (sys.float_repr_style is not 'short'), since it is then no oracle.
"""
import struct
import sys

SHOWN = 20


def python_repr(hex_bits):
    bits = int(hex_bits, 16)
    # The hex is the integer pattern, so lay it out little-endian and read
    # it back as a little-endian double.
    return repr(struct.unpack('<d', bits.to_bytes(8, 'little'))[0])


def main():
    if sys.float_repr_style != 'short':
        print('float repr: this Python has no short float repr, skipped')
        return 77
    passed = failed = 0
    for line in sys.stdin:
        line = line.rstrip('\n')
        fields = line.split(' ')
        try:
            if len(fields) != 2 or len(fields[0]) != 16:
                raise ValueError('malformed line')
            expected = python_repr(fields[0])
        except ValueError:
            failed += 1
            if failed <= SHOWN:
                print('malformed line: %r' % line)
            continue
        if fields[1] == expected:
            passed += 1
        else:
            failed += 1
            if failed <= SHOWN:
                print('%s: c=%s python=%s' % (fields[0], fields[1], expected))
    print('float repr: %d passed, %d failed' % (passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == '__main__':
    sys.exit(main())
