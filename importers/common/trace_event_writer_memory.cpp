// Memory series of TraceEventWriter: PyTorch's allocator "[memory]" instants (profile_memory=True)
// become metric series — gpu_mem_allocated and gpu_mem_reserved per CUDA device, cpu_mem_allocated /
// cpu_mem_reserved for the CPU allocator — in bytes, each sample the allocator's total after the
// event (a step function: period 0, the value holds until the next sample). The device's size
// (deviceProperties totalGlobalMem) becomes a constant gpu_mem_total series over the same span, the
// capacity the views draw and the batch-size headroom (MemoryHeadroom) divides.
#include "importers/common/trace_event_writer.h"

#include <algorithm>
#include <map>

namespace stepscope {

bool TraceEventWriter::writeMemory() {
    const std::vector<MemorySample> &all = m_buf.memorySamples();
    if (all.empty())
        return true;
    std::map<int32_t, std::vector<const MemorySample *>> byDevice;
    for (const MemorySample &m : all) byDevice[m.device].push_back(&m);
    const int64_t base = m_run.timeBaseNs - m_shift;  // trace ns -> absolute ns
    for (auto &[device, samples] : byDevice) {
        std::stable_sort(samples.begin(), samples.end(),
                         [](const MemorySample *a, const MemorySample *b) { return a->t < b->t; });
        const bool gpu = device >= 0;
        const std::optional<int64_t> dev = gpu ? std::optional<int64_t>(device) : std::nullopt;
        const std::string prefix = gpu ? "gpu_mem_" : "cpu_mem_";
        const int64_t allocated = m_w.addMetricSeries(m_ctx.sourceId(), m_run.name, prefix + "allocated", dev, "B", 0);
        const bool hasReserved = std::any_of(samples.begin(), samples.end(), [](const MemorySample *m) { return m->reserved >= 0; });
        const int64_t reserved = hasReserved ? m_w.addMetricSeries(m_ctx.sourceId(), m_run.name, prefix + "reserved", dev, "B", 0) : 0;
        for (const MemorySample *m : samples) {
            if (!tick())
                return false;
            m_w.addMetricSample(allocated, m->t + base, double(m->allocated));
            if (hasReserved && m->reserved >= 0)
                m_w.addMetricSample(reserved, m->t + base, double(m->reserved));
        }
        if (!gpu)
            continue;
        const auto prop = std::find_if(m_header.devices.begin(), m_header.devices.end(),
                                       [id = device](const TraceDeviceProperty &d) { return d.id == id; });
        if (prop != m_header.devices.end() && prop->totalGlobalMem && *prop->totalGlobalMem > 0) {
            const int64_t total = m_w.addMetricSeries(m_ctx.sourceId(), m_run.name, "gpu_mem_total", dev, "B", 0);
            m_w.addMetricSample(total, samples.front()->t + base, double(*prop->totalGlobalMem));
            m_w.addMetricSample(total, samples.back()->t + base, double(*prop->totalGlobalMem));
        }
    }
    m_memoryWritten = int64_t(all.size());
    return true;
}

} // namespace stepscope
