#pragma once
// TfEventParser hand-decodes the few fields of a TensorBoard `Event` a scalar reader needs
// (FORMATS.md §3.2): wall_time, step, and in its Summary each value's tag with either `simple_value`
// (float32) or a TF2-style scalar tensor (float/double/int/half/bfloat16 from the typed repeated
// fields or from tensor_content). TF2 writers attach the plugin metadata only to the first value of
// a tag, so the decoder remembers per tag whether it is a scalar; non-scalar values (histograms,
// images, text and custom_scalars tensors) are counted and skipped, as are graph and log records.
// One decoder per file; called by TfEventsImporter.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace stepscope {

struct TfScalar {
    std::string tag;
    double value = 0;
};

struct TfEvent {
    double wallTime = 0;  // seconds since the Unix epoch
    int64_t step = 0;
    bool hasFileVersion = false;
    std::vector<TfScalar> scalars;
    int64_t skippedValues = 0;  // summary values that are not scalars
};

class TfEventParser {
public:
    // False when the payload is not a well-formed Event (error() says why).
    bool decode(std::string_view payload, TfEvent &out);
    const std::string &error() const { return m_error; }

private:
    bool decodeSummary(std::string_view bytes, TfEvent &out);
    bool decodeValue(std::string_view bytes, TfEvent &out);

    std::unordered_map<std::string, bool> m_scalarTags;  // tag → its metadata said "scalars"
    std::string m_error;
};

} // namespace stepscope
