#include "importers/tfprofiler/tf_profiler_tool_importer.h"

#include "importers/tfprofiler/tf_profiler_tool_parser.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace stepscope {
namespace {

std::string topOpsJson(const std::vector<ToolTopOp> &ops) {
    QJsonArray out;
    for (const ToolTopOp &op : ops)
        out.append(QJsonObject{{"name", QString::fromStdString(op.name)}, {"category", QString::fromStdString(op.category)},
                               {"self_pct", op.selfPct}});
    return QJsonDocument(out).toJson(QJsonDocument::Compact).toStdString();
}

} // namespace

bool TfProfilerToolImporter::sniff(const std::filesystem::path &file, std::string_view head) const {
    if (TfProfilerToolParser::kindOf(file.filename().string()).empty()) return false;
    if (head.empty()) return true;
    const auto tag = uint8_t(head[0]);
    const int wireType = tag & 7;
    return (tag >> 3) != 0 && (wireType == 0 || wireType == 1 || wireType == 2 || wireType == 5);
}

ImportResult TfProfilerToolImporter::import(const std::filesystem::path &file, ImportContext &ctx) {
    ImportResult result;
    auto fail = [&](ImportLogCode code, const std::string &reason) {
        result.status = SourceStatus::Failed;
        result.message = file.string() + ": " + reason;
        ctx.warn(code, "", result.message);
        return result;
    };
    QFile f(QString::fromStdString(file.string()));
    if (!f.open(QIODevice::ReadOnly)) return fail(ImportLogCode::CannotOpen, "cannot open: " + f.errorString().toStdString());
    if (f.size() > kMaxBytes)
        return fail(ImportLogCode::NotThisFormat, std::to_string(f.size()) + " bytes, more than a TensorFlow profiler tool file holds (" +
                    std::to_string(kMaxBytes) + ")");
    const QByteArray bytes = f.readAll();
    const std::string kind = TfProfilerToolParser::kindOf(file.filename().string());
    const ToolVerdict v = TfProfilerToolParser::read(kind, std::string_view(bytes.constData(), size_t(bytes.size())));
    if (!v.error.empty()) return fail(ImportLogCode::MalformedProtobuf, v.error);

    ToolVerdictInfo info;
    info.tool = "tensorflow_profiler";
    info.kind = v.kind;
    info.inputPct = v.inputPct;
    info.verdict = v.verdict;
    info.deviceType = v.deviceType;
    info.steps = v.steps;
    info.topOpsJson = topOpsJson(v.topOps);
    ctx.writer().addToolVerdict(ctx.sourceId(), info);
    ctx.progress(bytes.size(), bytes.size());
    result.events = 1;
    return result;
}

} // namespace stepscope
