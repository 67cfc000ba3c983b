#include "importers/tfevents/tfevent_parser.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <optional>

namespace stepscope {
namespace {

// A minimal protobuf field reader over a byte range.
struct Wire {
    const uint8_t *p;
    const uint8_t *end;
    explicit Wire(std::string_view b) : p(reinterpret_cast<const uint8_t *>(b.data())), end(p + b.size()) {}

    bool varint(uint64_t &v) {
        v = 0;
        for (int shift = 0; shift < 64 && p < end; shift += 7) {
            const uint8_t c = *p++;
            v |= uint64_t(c & 0x7f) << shift;
            if (c < 0x80)
                return true;
        }
        return false;
    }
    // Reads one field; value holds varint/fixed bits, bytes the length-delimited payload.
    bool field(uint32_t &number, int &type, uint64_t &value, std::string_view &bytes) {
        uint64_t tag = 0;
        if (!varint(tag))
            return false;
        number = uint32_t(tag >> 3);
        type = int(tag & 7);
        switch (type) {
        case 0: return varint(value);
        case 1:
            if (end - p < 8) return false;
            std::memcpy(&value, p, 8);
            p += 8;
            return true;
        case 5: {
            if (end - p < 4) return false;
            uint32_t v32 = 0;
            std::memcpy(&v32, p, 4);
            value = v32;
            p += 4;
            return true;
        }
        case 2: {
            uint64_t len = 0;
            if (!varint(len) || len > uint64_t(end - p)) return false;
            bytes = std::string_view(reinterpret_cast<const char *>(p), size_t(len));
            p += len;
            return true;
        }
        default: return false;
        }
    }
    bool done() const { return p >= end; }
};

double fromHalf(uint16_t h) {
    const int exp = (h >> 10) & 0x1f;
    const int mant = h & 0x3ff;
    double v = exp == 0 ? std::ldexp(mant, -24) : exp == 31 ? (mant ? NAN : INFINITY) : std::ldexp(mant + 1024, exp - 25);
    return (h & 0x8000) ? -v : v;
}

float fromBits32(uint32_t bits) { return std::bit_cast<float>(bits); }

// The single element of a scalar TensorProto, or nullopt.
std::optional<double> tensorScalar(std::string_view tensor) {
    Wire w(tensor);
    uint64_t dtype = 0;
    std::string_view content;
    std::optional<double> typed;
    uint32_t n;
    int t;
    uint64_t v;
    std::string_view b;
    while (!w.done()) {
        if (!w.field(n, t, v, b))
            return std::nullopt;
        if (n == 1 && t == 0) dtype = v;
        else if (n == 4 && t == 2) content = b;
        else if ((n == 5 && t == 5) || (n == 5 && t == 2 && b.size() >= 4)) {  // float_val
            uint32_t bits = uint32_t(v);
            if (t == 2) std::memcpy(&bits, b.data(), 4);
            typed = fromBits32(bits);
        } else if ((n == 6 && t == 1) || (n == 6 && t == 2 && b.size() >= 8)) {  // double_val
            uint64_t bits = v;
            if (t == 2) std::memcpy(&bits, b.data(), 8);
            typed = std::bit_cast<double>(bits);
        } else if ((n == 7 || n == 10 || n == 13) && (t == 0 || t == 2)) {  // int_val, int64_val, half_val
            uint64_t x = v;
            if (t == 2) {
                Wire packed(b);
                if (!packed.varint(x)) continue;
            }
            typed = n == 13 ? fromHalf(uint16_t(x)) : n == 7 ? double(int32_t(uint32_t(x))) : double(int64_t(x));
        }
    }
    if (typed)
        return typed;
    switch (dtype) {  // tensor_content: raw little-endian bytes of the dtype
    case 1: if (content.size() >= 4) { uint32_t x; std::memcpy(&x, content.data(), 4); return fromBits32(x); } break;
    case 2: if (content.size() >= 8) { double x; std::memcpy(&x, content.data(), 8); return x; } break;
    case 3: if (content.size() >= 4) { int32_t x; std::memcpy(&x, content.data(), 4); return double(x); } break;
    case 9: if (content.size() >= 8) { int64_t x; std::memcpy(&x, content.data(), 8); return double(x); } break;
    case 19: if (content.size() >= 2) { uint16_t x; std::memcpy(&x, content.data(), 2); return fromHalf(x); } break;
    case 14: if (content.size() >= 2) { uint16_t x; std::memcpy(&x, content.data(), 2); return fromBits32(uint32_t(x) << 16); } break;
    default: break;
    }
    return std::nullopt;
}

// plugin_name of SummaryMetadata.plugin_data, and data_class.
void readMetadata(std::string_view meta, std::string &plugin, uint64_t &dataClass) {
    Wire w(meta);
    uint32_t n;
    int t;
    uint64_t v;
    std::string_view b;
    while (!w.done() && w.field(n, t, v, b)) {
        if (n == 1 && t == 2) {
            Wire pd(b);
            uint32_t n2;
            int t2;
            uint64_t v2;
            std::string_view b2;
            while (!pd.done() && pd.field(n2, t2, v2, b2))
                if (n2 == 1 && t2 == 2) plugin = std::string(b2);
        } else if (n == 4 && t == 0) {
            dataClass = v;
        }
    }
}

} // namespace

bool TfEventParser::decode(std::string_view payload, TfEvent &out) {
    out = TfEvent();
    Wire w(payload);
    uint32_t n;
    int t;
    uint64_t v;
    std::string_view b;
    while (!w.done()) {
        if (!w.field(n, t, v, b)) {
            m_error = "malformed Event at payload byte " + std::to_string(w.p - reinterpret_cast<const uint8_t *>(payload.data()));
            return false;
        }
        if (n == 1 && t == 1) out.wallTime = std::bit_cast<double>(v);
        else if (n == 2 && t == 0) out.step = int64_t(v);
        else if (n == 3 && t == 2) out.hasFileVersion = true;
        else if (n == 5 && t == 2 && !decodeSummary(b, out)) return false;
    }
    return true;
}

bool TfEventParser::decodeSummary(std::string_view bytes, TfEvent &out) {
    Wire w(bytes);
    uint32_t n;
    int t;
    uint64_t v;
    std::string_view b;
    while (!w.done()) {
        if (!w.field(n, t, v, b)) {
            m_error = "malformed Summary";
            return false;
        }
        if (n == 1 && t == 2 && !decodeValue(b, out)) return false;
    }
    return true;
}

bool TfEventParser::decodeValue(std::string_view bytes, TfEvent &out) {
    Wire w(bytes);
    uint32_t n;
    int t;
    uint64_t v;
    std::string_view b, tensor;
    std::string tag, plugin;
    uint64_t dataClass = 0;
    std::optional<float> simple;
    bool hasTensor = false, hasMeta = false;
    while (!w.done()) {
        if (!w.field(n, t, v, b)) {
            m_error = "malformed Summary.Value";
            return false;
        }
        if (n == 1 && t == 2) tag = std::string(b);
        else if (n == 2 && t == 5) simple = fromBits32(uint32_t(v));
        else if (n == 8 && t == 2) { tensor = b; hasTensor = true; }
        else if (n == 9 && t == 2) { readMetadata(b, plugin, dataClass); hasMeta = true; }
    }
    if (simple) {
        out.scalars.push_back({tag, double(*simple)});
        return true;
    }
    if (hasMeta && (!plugin.empty() || dataClass != 0))
        m_scalarTags[tag] = plugin == "scalars" || dataClass == 1;
    const auto known = m_scalarTags.find(tag);
    if (hasTensor && known != m_scalarTags.end() && known->second) {
        if (const auto x = tensorScalar(tensor)) {
            out.scalars.push_back({tag, *x});
            return true;
        }
    }
    ++out.skippedValues;
    return true;
}

} // namespace stepscope
