#pragma once
// XPlaneWireEncoder: the few protobuf wire-format primitives the synthetic XPlane writer needs
// (varints, length-delimited fields, fixed64 doubles), hand-written so stepscope_synth stays free of
// a protobuf dependency. It owns nothing but the std::string it appends to; the field numbers live
// in the caller (XPlaneTraceConverter), matching importers/xplane/xplane.proto.

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace stepscope::synth {

class XPlaneWireEncoder {
public:
    explicit XPlaneWireEncoder(std::string &out) : out_(out) {}

    void varint(uint64_t v) {
        while (v >= 0x80) {
            out_.push_back(static_cast<char>(v | 0x80));
            v >>= 7;
        }
        out_.push_back(static_cast<char>(v));
    }
    void tag(uint32_t field, int wireType) { varint((uint64_t(field) << 3) | uint32_t(wireType)); }
    // int64 / uint64 fields (negative int64 take ten bytes, as protobuf writes them).
    void int64Field(uint32_t field, int64_t v) {
        tag(field, 0);
        varint(static_cast<uint64_t>(v));
    }
    void bytesField(uint32_t field, std::string_view bytes) {
        tag(field, 2);
        varint(bytes.size());
        out_.append(bytes);
    }
    void doubleField(uint32_t field, double v) {
        tag(field, 1);
        char b[8];
        std::memcpy(b, &v, 8);
        out_.append(b, 8);
    }

private:
    std::string &out_;
};

} // namespace stepscope::synth
