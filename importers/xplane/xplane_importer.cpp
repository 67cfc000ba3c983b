#include "importers/xplane/xplane_importer.h"

#include "importers/common/byte_source.h"
#include "importers/xplane/xplane_space_writer.h"
#include "importers/xplane/xplane_wire_reader.h"

#include <QFile>

#include <vector>

namespace stepscope {
namespace {

constexpr std::string_view kSuffix = ".xplane.pb";

// The file's bytes, mapped (no copy) or, for a gzip-wrapped file, inflated once.
class XPlaneBytes {
public:
    bool open(const std::filesystem::path &file, std::string &error) {
        const std::string head = ByteSource::peek(file, 2, &error);
        if (!error.empty())
            return false;
        if (head.size() == 2 && uint8_t(head[0]) == 0x1f && uint8_t(head[1]) == 0x8b)
            return inflate(file, error);
        m_file.setFileName(QString::fromStdString(file.string()));
        if (!m_file.open(QIODevice::ReadOnly)) {
            error = file.string() + ": cannot open: " + m_file.errorString().toStdString();
            return false;
        }
        m_size = m_file.size();
        if (m_size == 0)
            return true;
        if (m_size > XPlaneWireReader::kMaxSize) {
            error = file.string() + ": " + std::to_string(m_size) + " bytes, beyond the 2 GiB a protobuf message can hold";
            return false;
        }
        m_data = m_file.map(0, m_size);
        if (!m_data) {
            error = file.string() + ": cannot map: " + m_file.errorString().toStdString();
            return false;
        }
        return true;
    }
    const uint8_t *data() const { return m_data ? m_data : reinterpret_cast<const uint8_t *>(m_inflated.data()); }
    int64_t size() const { return m_size; }

private:
    bool inflate(const std::filesystem::path &file, std::string &error) {
        ByteSource source(file);
        source.setLimits(XPlaneWireReader::kMaxSize + 1, ByteSource::kDefaultMaxRatio);
        std::vector<char> chunk;
        while (source.read(chunk))
            m_inflated.insert(m_inflated.end(), chunk.begin(), chunk.end());
        m_size = int64_t(m_inflated.size());
        if (!source.ok())
            error = source.error();
        return source.ok() || m_size > 0;
    }

    QFile m_file;
    uchar *m_data = nullptr;
    std::vector<char> m_inflated;
    int64_t m_size = 0;
};

std::string hostOf(const std::filesystem::path &file) {
    std::string name = file.filename().string();
    if (name.size() > kSuffix.size() && name.ends_with(kSuffix))
        name.resize(name.size() - kSuffix.size());
    else if (name.ends_with(".pb"))
        name.resize(name.size() - 3);
    return name;
}

// Reads a varint at head[p]; false past the end of head.
bool varint(std::string_view head, size_t &p, uint64_t &v) {
    v = 0;
    for (int shift = 0; p < head.size() && shift < 64; shift += 7) {
        const auto c = uint8_t(head[p++]);
        v |= uint64_t(c & 0x7f) << shift;
        if (c < 0x80)
            return true;
    }
    return false;
}

} // namespace

std::string XPlaneImporter::runNameFor(const std::filesystem::path &file) {
    const std::filesystem::path run = file.parent_path();
    const std::filesystem::path profile = run.parent_path();
    if (profile.filename() == "profile" && profile.parent_path().filename() == "plugins")
        return run.filename().string() + "/" + hostOf(file);
    return hostOf(file);
}

bool XPlaneImporter::sniff(const std::filesystem::path &file, std::string_view head) const {
    if (head.empty() || uint8_t(head[0]) != 0x0a)
        return false;
    if (file.filename().string().ends_with(kSuffix))
        return true;  // a protobuf has no magic: the name and field 1 are the evidence; parsing decides
    // Without the name: the first plane must start with its id or name, and the name look like one.
    size_t p = 1;
    uint64_t len = 0, tag = 0;
    if (!varint(head, p, len) || !varint(head, p, tag))
        return false;
    if (tag == 0x08) {
        uint64_t id = 0;
        if (!varint(head, p, id) || !varint(head, p, tag))
            return false;
    }
    if (tag != 0x12 || !varint(head, p, len) || p + len > head.size())
        return false;
    const std::string_view name = head.substr(p, size_t(len));
    return name.starts_with("/host:") || name.starts_with("/device:") || name == "Task Environment";
}

ImportResult XPlaneImporter::import(const std::filesystem::path &file, ImportContext &ctx) {
    ImportResult result;
    XPlaneBytes bytes;
    std::string openError;
    if (!bytes.open(file, openError) && bytes.size() == 0) {
        result.status = SourceStatus::Failed;
        result.message = openError;
        ctx.error("", result.message);
        return result;
    }
    if (!openError.empty())  // a cut-short gzip: parse what inflated
        ctx.error("", openError);
    if (bytes.size() == 0) {
        result.status = SourceStatus::Failed;
        result.message = file.string() + ": empty file, no XSpace in it";
        ctx.error("byte 0", result.message);
        return result;
    }

    XPlaneWireReader reader(bytes.data(), bytes.size());
    XSpaceHeader space;
    if (!reader.readSpace(space) && space.planes.empty()) {
        result.status = SourceStatus::Failed;
        result.message = file.string() + ": not a readable XSpace: malformed protobuf at byte " +
                         std::to_string(reader.error().offset) + ": " + reader.error().reason;
        ctx.error("byte " + std::to_string(reader.error().offset), result.message);
        return result;
    }
    for (const std::string &e : space.errors)
        ctx.warn("", "the profiler recorded an error: " + e);
    for (const std::string &w : space.warnings)
        ctx.info("", "the profiler recorded a warning: " + w);

    XPlaneSpaceWriter writer(ctx, reader, runNameFor(file), hostOf(file));
    if (!writer.write(space)) {
        result.status = SourceStatus::Failed;
        result.message = file.string() + ": import cancelled";
        return result;
    }
    ctx.progress(bytes.size(), bytes.size());
    result.events = writer.slicesWritten();
    if (reader.error().failed() || !openError.empty()) {
        const WireError &e = reader.error();
        result.message = e.failed() ? file.string() + ": malformed protobuf at byte " + std::to_string(e.offset) +
                                          ": " + e.reason + " (not a readable XSpace from there on)"
                                    : openError;
        if (e.failed())
            ctx.error("byte " + std::to_string(e.offset), result.message);
        result.status = result.events > 0 ? SourceStatus::Partial : SourceStatus::Failed;
    }
    return result;
}

} // namespace stepscope
