#pragma once
// DeterministicRandom: xoshiro256** seeded through splitmix64. Owned by the step simulator and the
// bottleneck shaper, which need the same numbers for the same seed on every compiler and standard
// library (std::*_distribution differ between libstdc++ and libc++), so that outputs are byte-identical.

#include <cstdint>

namespace stepscope::synth {

class DeterministicRandom {
public:
    explicit DeterministicRandom(uint64_t seed) {
        uint64_t x = seed;
        for (auto &s : state_)
            s = splitMix64(x);
    }

    static uint64_t splitMix64(uint64_t &x) {
        uint64_t z = (x += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }

    // Mixes several values into one seed (a stream per GPU, per step, ...).
    static uint64_t mix(uint64_t a, uint64_t b) {
        uint64_t x = a ^ (b * 0xD6E8FEB86659FD93ull);
        return splitMix64(x);
    }

    uint64_t next() {
        const uint64_t result = rotl(state_[1] * 5, 7) * 9;
        const uint64_t t = state_[1] << 17;
        state_[2] ^= state_[0];
        state_[3] ^= state_[1];
        state_[1] ^= state_[2];
        state_[0] ^= state_[3];
        state_[2] ^= t;
        state_[3] = rotl(state_[3], 45);
        return result;
    }

    // [0, 1) with 53 random bits: exact in IEEE doubles, so identical everywhere.
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    // Integer in [0, n).
    uint64_t below(uint64_t n) { return n ? next() % n : 0; }
    // Multiplicative jitter around 1 with a bell-ish shape (mean of two uniforms), +-spread at most.
    double jitter(double spread) { return 1.0 + spread * (uniform() + uniform() - 1.0); }

private:
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    uint64_t state_[4];
};

} // namespace stepscope::synth
