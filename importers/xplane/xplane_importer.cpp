#include "importers/xplane/xplane_importer.h"

#include "models/trace/rank_in_name.h"
#include "importers/common/byte_source.h"
#include "importers/xplane/xplane_space_writer.h"
#include "importers/xplane/xplane_tokenizer.h"

#include <QFile>

#include <algorithm>
#include <memory>
#include <vector>

namespace stepscope {
namespace {

constexpr std::string_view kSuffix = ".xplane.pb";

// The file's bytes, read into memory in bounded pieces or, for a gzip-wrapped file, inflated once.
// Not memory-mapped: a mapped file that is truncated or replaced while it is read raises SIGBUS on
// the next page touched; read, it is a short read, reported as an error naming the file, and what
// was read is parsed (a partial import). Peak memory is the same as mapped, where every page of
// the file ends up resident too.
class XPlaneBytes {
public:
    bool open(const std::filesystem::path &file, std::string &error) {
        const std::string head = ByteSource::peek(file, 2, &error);
        if (!error.empty())
            return false;
        if (head.size() == 2 && uint8_t(head[0]) == 0x1f && uint8_t(head[1]) == 0x8b)
            return inflate(file, error);
        QFile f(QString::fromStdString(file.string()));
        if (!f.open(QIODevice::ReadOnly)) {
            error = file.string() + ": cannot open: " + f.errorString().toStdString();
            return false;
        }
        const int64_t expected = f.size();
        if (expected > XPlaneTokenizer::kMaxSize) {
            error = file.string() + ": " + std::to_string(expected) + " bytes, beyond the 2 GiB a protobuf message can hold";
            return false;
        }
        if (XPlaneImporter::afterSizeForTest)
            XPlaneImporter::afterSizeForTest(file);
        m_raw.reset(new uint8_t[size_t(std::max<int64_t>(1, expected))]);  // not zero-filled: pages arrive as read
        while (m_size < expected) {
            const qint64 n = f.read(reinterpret_cast<char *>(m_raw.get()) + m_size, std::min<int64_t>(kPiece, expected - m_size));
            if (n <= 0) {
                error = file.string() + ": " +
                        (n < 0 ? "read failed after " + std::to_string(m_size) + " bytes: " + f.errorString().toStdString()
                               : "shrank from " + std::to_string(expected) + " to " + std::to_string(m_size) +
                                     " bytes while being read (truncated or replaced)");
                return false;
            }
            m_size += n;
        }
        return true;
    }
    const uint8_t *data() const { return m_raw ? m_raw.get() : reinterpret_cast<const uint8_t *>(m_inflated.data()); }
    int64_t size() const { return m_size; }

private:
    static constexpr int64_t kPiece = int64_t(8) << 20;

    bool inflate(const std::filesystem::path &file, std::string &error) {
        ByteSource source(file);
        source.setLimits(XPlaneTokenizer::kMaxSize + 1, ByteSource::kDefaultMaxRatio);
        std::vector<char> chunk;
        while (source.read(chunk))
            m_inflated.insert(m_inflated.end(), chunk.begin(), chunk.end());
        m_size = int64_t(m_inflated.size());
        if (!source.ok())
            error = source.error();
        return source.ok() || m_size > 0;
    }

    std::unique_ptr<uint8_t[]> m_raw;
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
        ctx.error(ImportLogCode::CannotOpen, "", result.message);
        return result;
    }
    if (!openError.empty())  // a cut-short gzip, a file that shrank while read: parse what was read
        ctx.error(ImportLogCode::ReadError, "", openError);
    if (bytes.size() == 0) {
        result.status = SourceStatus::Failed;
        result.message = file.string() + ": empty file, no XSpace in it";
        ctx.error(ImportLogCode::EmptyFile, "byte 0", result.message);
        return result;
    }

    XPlaneTokenizer reader(bytes.data(), bytes.size());
    XSpaceHeader space;
    if (!reader.readSpace(space) && space.planes.empty()) {
        result.status = SourceStatus::Failed;
        result.message = file.string() + ": not a readable XSpace: malformed protobuf at byte " +
                         std::to_string(reader.error().offset) + ": " + reader.error().reason;
        ctx.error(ImportLogCode::MalformedProtobuf, "byte " + std::to_string(reader.error().offset), result.message);
        return result;
    }
    for (const std::string &e : space.errors)
        ctx.warn(ImportLogCode::ProfilerMessage, "", "the profiler recorded an error: " + e);
    for (const std::string &w : space.warnings)
        ctx.info(ImportLogCode::ProfilerMessage, "", "the profiler recorded a warning: " + w);

    XPlaneSpaceWriter writer(ctx, reader, runNameFor(file), hostOf(file));
    writer.setRank(xplaneHostRank(file));
    struct SmallCache {  // XPlane writes track by track, each in time order
        SessionWriter &w;
        explicit SmallCache(SessionWriter &writer) : w(writer) { w.useSmallCache(true); }
        ~SmallCache() { w.useSmallCache(false); }
    } smallCache(ctx.writer());
    if (!writer.write(space)) {
        result.status = SourceStatus::Failed;
        result.message = file.string() + ": import cancelled";
        return result;
    }
    ctx.progress(bytes.size(), bytes.size());
    result.events = writer.slicesWritten();
    if (reader.error().failed() || !openError.empty()) {
        const WireError &e = reader.error();
        const std::string malformed = e.failed() ? file.string() + ": malformed protobuf at byte " + std::to_string(e.offset) +
                                                       ": " + e.reason + " (not a readable XSpace from there on)"
                                                 : std::string();
        if (e.failed())
            ctx.error(ImportLogCode::MalformedProtobuf, "byte " + std::to_string(e.offset), malformed);
        result.message = openError.empty() ? malformed : openError;  // a short read is the cause of what follows
        result.status = result.events > 0 ? SourceStatus::Partial : SourceStatus::Failed;
    }
    return result;
}

} // namespace stepscope
