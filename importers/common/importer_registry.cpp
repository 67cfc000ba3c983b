#include "importers/common/importer_registry.h"

// Each importer adds its include here and one line in the constructor below.
#include "importers/chrome/chrome_trace_importer.h"
#include "importers/metrics/cloudwatch_csv_importer.h"
#include "importers/metrics/dcgmi_dmon_importer.h"
#include "importers/metrics/generic_csv_importer.h"
#include "importers/metrics/nvidia_smi_csv_importer.h"
#include "importers/metrics/nvidia_smi_dmon_importer.h"
#include "importers/metrics/sadf_importer.h"
#include "importers/nsys/nsys_sqlite_importer.h"
#include "importers/metrics/smdebug_system_importer.h"
#include "importers/tfevents/tfevents_importer.h"
#include "importers/tfprofiler/tf_profiler_tool_importer.h"
#include "importers/xplane/xplane_importer.h"

namespace stepscope {

ImporterRegistry::ImporterRegistry() {
    // Order matters only where two formats could accept the same bytes: more specific first.
    m_importers.push_back(std::make_unique<SmdebugSystemImporter>());
    m_importers.push_back(std::make_unique<ChromeTraceImporter>());
    m_importers.push_back(std::make_unique<NvidiaSmiCsvImporter>());
    m_importers.push_back(std::make_unique<NvidiaSmiDmonImporter>());
    m_importers.push_back(std::make_unique<DcgmiDmonImporter>());
    m_importers.push_back(std::make_unique<SadfImporter>());
    m_importers.push_back(std::make_unique<CloudWatchCsvImporter>());
    m_importers.push_back(std::make_unique<XPlaneImporter>());
    m_importers.push_back(std::make_unique<TfProfilerToolImporter>());
    m_importers.push_back(std::make_unique<NsysSqliteImporter>());
    m_importers.push_back(std::make_unique<TfEventsImporter>());
    m_importers.push_back(std::make_unique<GenericCsvImporter>());  // catch-all CSV: keep last
}

Importer *ImporterRegistry::find(const std::filesystem::path &file, std::string_view head) const {
    for (const auto &imp : m_importers)
        if (imp->sniff(file, head)) return imp.get();
    return nullptr;
}

} // namespace stepscope
