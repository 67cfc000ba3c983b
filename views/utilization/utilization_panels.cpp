#include "views/utilization/utilization_panels.h"

#include "models/colors/palette.h"
#include "models/metrics/metric_units.h"

#include <QStringList>

#include <algorithm>
#include <set>

namespace stepscope {

namespace {

struct PanelSpec {
    const char *key, *title;
    std::vector<std::string> names;
    std::vector<std::string> limits = {};  // capacity series shown as a line on this panel
    bool limitsOnScale = true;
};

const std::vector<PanelSpec> &specs() {
    static const std::vector<PanelSpec> s = {
        {"gpu_util", "GPU utilization", {"gpu_util"}},
        {"gpu_mem_used", "GPU memory used", {"gpu_mem_used"}, {"gpu_mem_total", "memory.total"}},
        {"gpu_mem_alloc", "GPU memory allocated", {"gpu_mem_allocated", "gpu_mem_reserved"}, {"gpu_mem_total"}, false},
        {"gpu_mem_util", "GPU memory utilization", {"gpu_mem_util"}},
        {"cpu", "CPU", {"cpu_util"}},
        {"host_mem", "Host memory", {"host_mem_used"}},
        {"network", "Network", {"net_in", "net_out"}},
        {"disk", "Disk", {"disk_read", "disk_write"}},
        {"io_wait", "I/O wait", {"io_wait"}},
    };
    return s;
}

} // namespace

std::vector<UtilizationPanel> UtilizationPanels::group(const MetricSeriesModel &model) {
    std::vector<UtilizationPanel> out;
    for (const PanelSpec &spec : specs()) {
        UtilizationPanel panel{QString::fromLatin1(spec.key), QString::fromLatin1(spec.title), {}, {}, {}, spec.limitsOnScale};
        for (const std::string &name : spec.names)
            for (int i = 0; i < model.count(); ++i) {
                const MetricSeriesInfo &info = model.series(i).info;
                if (info.name != name || model.series(i).lod.size() == 0) continue;
                // Per-core CPU (and per-core I/O wait) lines would bury the chart: the panels show
                // the machine value and the derived busiest-core / mean-of-cores series instead.
                if ((name == "cpu_util" || name == "io_wait") && info.device && info.id >= 0) continue;
                if (panel.unit.isEmpty()) panel.unit = QString::fromStdString(info.unit);
                else if (panel.unit != QString::fromStdString(info.unit)) continue;  // mixed units: keep the first
                panel.series.push_back(i);
            }
        for (const std::string &name : spec.limits)
            for (int i = 0; i < model.count(); ++i) {
                const MetricSeriesInfo &info = model.series(i).info;
                if (info.name == name && model.series(i).lod.size() > 0 && QString::fromStdString(info.unit) == panel.unit)
                    panel.limits.push_back(i);
            }
        if (!panel.series.empty()) out.push_back(std::move(panel));
    }
    // A session whose metrics fit none of the panels (an Nsight Systems export with only the GPU's
    // memory size) still charts what it has, one panel per series name, as the timeline shows it —
    // never "no instance metrics" beside a metric track.
    if (out.empty())
        for (int i = 0; i < model.count(); ++i) {
            const MetricSeriesInfo &info = model.series(i).info;
            if (model.series(i).lod.size() == 0) continue;
            const QString key = QString::fromStdString(info.name);
            auto it = std::find_if(out.begin(), out.end(), [&](const UtilizationPanel &p) {
                return p.key == key && p.unit == QString::fromStdString(info.unit);
            });
            if (it == out.end()) out.push_back({key, MetricUnits::seriesTitle(key), QString::fromStdString(info.unit), {i}, {}, true});
            else it->series.push_back(i);
        }
    return out;
}

bool UtilizationPanels::severalRuns(const MetricSeriesModel &model) {
    std::set<std::string> runs;
    for (const MetricSeries &s : model.all()) runs.insert(s.info.run);
    return runs.size() > 1;
}

QString UtilizationPanels::seriesLabel(const MetricSeriesInfo &info, bool withRun) {
    QString label;
    if (!info.label.empty()) label = QString::fromStdString(info.label);
    else if (info.name == "gpu_mem_allocated" || info.name == "gpu_mem_reserved")
        label = (info.device ? QStringLiteral("GPU %1 ").arg(*info.device) : QStringLiteral("GPU ")) +
                QString::fromLatin1(info.name == "gpu_mem_allocated" ? "allocated" : "reserved");
    else if (info.name.rfind("gpu_", 0) == 0) label = info.device ? QStringLiteral("GPU %1").arg(*info.device) : QStringLiteral("GPU");
    else if (info.name == "cpu_util") label = info.device ? QStringLiteral("core %1").arg(*info.device) : QStringLiteral("machine");
    else if (info.name == "net_in") label = QStringLiteral("in");
    else if (info.name == "net_out") label = QStringLiteral("out");
    else if (info.name == "disk_read") label = QStringLiteral("read");
    else if (info.name == "disk_write") label = QStringLiteral("write");
    else if (info.name == "host_mem_used") label = QStringLiteral("used");
    else if (info.name == "io_wait") label = QStringLiteral("I/O wait");
    else label = QString::fromStdString(info.name);
    if (withRun && !info.run.empty()) label = QString::fromStdString(info.run) + QStringLiteral(" · ") + label;
    return label;
}

std::vector<UtilizationGroup> UtilizationPanels::groups(const UtilizationPanel &panel, const MetricSeriesModel &model) {
    if (int(panel.series.size()) <= kGroupAbove) return {};
    std::vector<UtilizationGroup> out;
    std::set<std::pair<std::string, int64_t>> members;
    for (size_t i = 0; i < panel.series.size(); ++i) {
        const MetricSeriesInfo &info = model.series(panel.series[i]).info;
        members.insert({info.run, info.device.value_or(-1)});
        const QString role = roleLabel(info);
        auto it = std::find_if(out.begin(), out.end(), [&](const UtilizationGroup &g) { return g.role == role; });
        if (it == out.end()) out.push_back({role, {i}});
        else it->series.push_back(i);
    }
    // Many series of one member (a host's disks, say) are not ranks to tell apart.
    // Nor are series that share no role (each labelled on its own by the importer).
    if (members.size() < 2 || std::none_of(out.begin(), out.end(), [](const UtilizationGroup &g) { return g.series.size() > 1; }))
        return {};
    return out;
}

UtilizationMembers UtilizationPanels::members(const std::vector<UtilizationPanel> &panels, const MetricSeriesModel &model) {
    std::set<std::string> runs;
    std::set<int64_t> devices;
    for (const UtilizationPanel &panel : panels) {
        if (groups(panel, model).empty()) continue;
        for (int s : panel.series) {
            runs.insert(model.series(s).info.run);
            devices.insert(model.series(s).info.device.value_or(-1));
        }
    }
    UtilizationMembers m;
    m.byRun = runs.size() > 1;
    m.byDevice = devices.size() > 1 || !m.byRun;
    return m;
}

QString UtilizationMembers::noun() const { return byRun ? QStringLiteral("rank") : QStringLiteral("GPU"); }

QString UtilizationMembers::label(const MetricSeriesInfo &info) const {
    QStringList parts;
    if (byRun) parts << QString::fromStdString(info.run);
    if (byDevice) parts << (info.device ? QStringLiteral("GPU %1").arg(*info.device) : UtilizationPanels::roleLabel(info));
    return parts.join(QStringLiteral(" · "));
}

QString UtilizationPanels::roleLabel(const MetricSeriesInfo &info) {
    MetricSeriesInfo role = info;
    role.device.reset();
    return seriesLabel(role, false);
}

QString UtilizationPanels::limitLabel(const MetricSeriesInfo &info, bool withRun) {
    QString label = info.device ? QStringLiteral("GPU %1 total").arg(*info.device) : QStringLiteral("total");
    if (withRun && !info.run.empty()) label = QString::fromStdString(info.run) + QStringLiteral(" · ") + label;
    return label;
}

QColor UtilizationPanels::meanColor(const MetricSeriesInfo &info) {
    return QColor(info.name == "gpu_mem_reserved" ? kSecondMeanGrey : kMeanGrey);
}

QColor UtilizationPanels::seriesColor(const MetricSeriesInfo &info, int indexInPanel) {
    if (info.name == "gpu_mem_reserved" && info.device) {
        // The allocator's reserve: the GPU's hue, lighter, under its allocated line.
        return seriesPaletteColor(size_t(*info.device)).lighter(160);
    }
    if (info.name.rfind("gpu_", 0) == 0 && info.device) return seriesPaletteColor(size_t(*info.device));
    if (info.label == "busiest core") return seriesPaletteColor(3);
    if (info.name == "net_out" || info.name == "disk_write") return seriesPaletteColor(1);
    if (info.name == "net_in" || info.name == "disk_read" || info.name == "cpu_util") return seriesPaletteColor(0);
    return seriesPaletteColor(size_t(indexInPanel));
}

} // namespace stepscope
