"""What the Bumble peers share about CS tones: a PCT's I and Q (Core 6.0 Vol 4 Part E 7.7.65.44,
12 bits each, two's complement) and the phase-slope distance over 1 MHz neighbours."""
import cmath
import math


def pct(value):
    """12-bit I (bits 0-11) and Q (bits 12-23), two's complement."""
    i = value & 0xFFF
    q = (value >> 12) & 0xFFF
    return complex(i - 4096 if i >= 2048 else i, q - 4096 if q >= 2048 else q)


def distance(tones):
    """Kay phase-difference estimate over 1 MHz neighbours: d = -c*arg(S)/(4*pi*1 MHz)."""
    s = 0j
    for ch, z in tones.items():
        if ch - 1 in tones:
            s += z * tones[ch - 1].conjugate()
    if s == 0:
        return None
    d = -299792458.0 * cmath.phase(s) / (4 * math.pi * 1e6)
    return d if d >= -10 else d + 299792458.0 / 2e6
