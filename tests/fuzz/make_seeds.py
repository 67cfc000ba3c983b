#!/usr/bin/env python3
"""Writes the tiny seed inputs of the fuzz targets into tests/fuzz/seeds/<target>/.

Seeds are small (libFuzzer mutates them; big seeds only slow it down): hand-written traces that
touch each feature of a format, plus copies of the metric fixtures in tests/data/metrics.
Run from anywhere: python3 tests/fuzz/make_seeds.py
"""
import gzip, os, shutil, struct, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data", "metrics")
SEEDS = os.path.join(HERE, "seeds")

CHROME = {
    "kineto.json": b'''{"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H100"}],
 "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 2},
 "traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 11, "tid": 11, "ts": 1712195495406752.8, "dur": 63.813, "args": {"External id": 3, "Sequence number": 1}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 11, "tid": 11, "ts": 1712195495406760, "dur": 5, "args": {"correlation": 7}},
  {"ph": "X", "cat": "kernel", "name": "sm90_gemm", "pid": 0, "tid": 7, "ts": 1712195495406770, "dur": 40, "args": {"device": 0, "stream": 7, "correlation": 7}},
  {"ph": "s", "id": 7, "pid": 11, "tid": 11, "ts": 1712195495406760, "cat": "ac2g", "name": "ac2g"},
  {"ph": "f", "id": 7, "pid": 0, "tid": 7, "ts": 1712195495406770, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#4", "pid": 11, "tid": 11, "ts": 1712195495406700, "dur": 200},
  {"ph": "C", "name": "Memory", "pid": 11, "ts": 1712195495406752, "args": {"bytes": 1024}},
  {"ph": "M", "name": "process_name", "pid": 0, "args": {"name": "GPU 0", "labels": "GPU 0"}},
  {"ph": "M", "name": "thread_sort_index", "pid": 0, "tid": 7, "args": {"sort_index": 3}}
 ], "baseTimeNanoseconds": 1712195495000000000, "traceName": "x", "displayTimeUnit": "ms"}''',
    "begin_end.json": b'''[
 {"ph": "B", "name": "outer", "pid": 1, "tid": 1, "ts": 0},
 {"ph": "B", "name": "in\\u00e9\\"ner\\n", "pid": 1, "tid": 1, "ts": 1, "args": {"k": [1, {"a": null}], "s": "x"}},
 {"ph": "E", "pid": 1, "tid": 1, "ts": 3},
 {"ph": "E", "pid": 1, "tid": 1, "ts": 10},
 {"ph": "B", "name": "never ends", "pid": 1, "tid": 1, "ts": 12},
 {"ph": "X", "name": "overlap", "pid": 1, "tid": 1, "ts": 11, "dur": 5},
 {"ph": "X", "name": "neg", "pid": 1, "tid": 2, "ts": -5, "dur": -1},
 {"ph": "i", "s": "g", "name": "mark", "pid": "", "tid": "", "ts": 1e3}''',
    "async_flow2.json": b'''{"traceEvents": [
 {"ph": "b", "cat": "a", "name": "req", "id": "0x1", "pid": 2, "tid": 2, "ts": 5},
 {"ph": "n", "cat": "a", "name": "req", "id": "0x1", "pid": 2, "tid": 2, "ts": 6},
 {"ph": "e", "cat": "a", "name": "req", "id": "0x1", "pid": 2, "tid": 2, "ts": 9},
 {"ph": "X", "name": "a", "pid": 2, "tid": 3, "ts": 1, "dur": 2, "bind_id": "0x9", "flow_out": true},
 {"ph": "X", "name": "b", "pid": 2, "tid": 4, "ts": 4, "dur": 2, "bind_id": "0x9", "flow_in": true},
 {"ph": "X", "name": "c", "pid": 2, "tid": 4, "ts": "bad", "dur": 1e400},
 {"ph": "X", "name": "Step 3", "pid": "Spans", "tid": "PyTorch Profiler", "ts": 99999999999999999999, "dur": 1},
 {}, 1, "s", [], {"ph": "M", "name": "process_labels", "pid": 3, "args": {"labels": "ROCm GPU 1"}}
], "otherData": {"x": [1, 2, {"y": "z"}]}}''',
    "sagemaker.json": b'''[{"name": "process_name", "ph": "M", "pid": 0, "args": {"start_time_since_epoch_in_micros": 1600000000000000, "name": "Step:ModeKeys.TRAIN"}},
{"name": "Step:ModeKeys.TRAIN", "ph": "X", "ts": 10, "dur": 20, "pid": 0, "tid": 0, "args": {"step_num": "1"}},''',
}

def write(target, name, data):
    d = os.path.join(SEEDS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)

def gz(data):
    return gzip.compress(data, mtime=0)

def tfrecord(payload):
    def crc32c(b):
        crc = 0xFFFFFFFF
        for x in b:
            crc ^= x
            for _ in range(8):
                crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
        return crc ^ 0xFFFFFFFF
    def masked(c):
        return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF
    n = struct.pack("<Q", len(payload))
    return n + struct.pack("<I", masked(crc32c(n))) + payload + struct.pack("<I", masked(crc32c(payload)))

def pb_varint(v):
    out = b""
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])

def pb_field(num, wire, payload):
    key = pb_varint((num << 3) | wire)
    if wire == 2:
        return key + pb_varint(len(payload)) + payload
    return key + payload

def main():
    if os.path.isdir(SEEDS):
        shutil.rmtree(SEEDS)
    for name, text in CHROME.items():
        write("chrome_import", name, text)
        write("chrome_tokenizer", "all_" + name, b"\x00" + text)
        write("chrome_tokenizer", "chunk7_" + name, b"\x07" + text)
        write("chrome_tokenizer", "chunk1_" + name, b"\x01" + text)
    write("chrome_import", "kineto.json.gz", gz(CHROME["kineto.json"]))
    write("chrome_import", "truncated.json.gz", gz(CHROME["kineto.json"])[:-30])
    for name, text in CHROME.items():
        write("byte_source", name + ".gz", gz(text))
    write("byte_source", "two_members.gz", gz(b"a,b\n1,2\n") + gz(b"3,4\n"))
    write("byte_source", "zlib.gz", b"\x1f\x8b" + zlib.compress(b"x" * 100))
    write("byte_source", "bomb.gz", gz(b"\n" * 200000))
    write("byte_source", "plain.csv", b"a,b\r\n1,2\n")

    per = {
        "nvidia_smi_csv": ["nvsmi_units.csv", "nvsmi_nounits_busid.csv"],
        "nvidia_smi_dmon": ["dmon.txt", "dmon_dt.txt"],
        "dcgmi_dmon": ["dcgmi.txt"],
        "sadf": ["sadf.txt"],
        "smdebug_system": ["smdebug.json"],
        "csv_metric": ["generic_iso.csv", "generic_ms.csv", "cloudwatch.csv"],
    }
    importer_index = {"smdebug_system": 0, "nvidia_smi_csv": 1, "nvidia_smi_dmon": 2, "dcgmi_dmon": 3,
                      "sadf": 4, "csv_metric": 5}
    for target, files in per.items():
        for f in files:
            with open(os.path.join(DATA, f), "rb") as fh:
                data = fh.read()[:4096]
            if target == "csv_metric":
                write(target, f, b"\x00" + data)
                write(target, "utc_" + f, b"\x01" + data)
            else:
                write(target, f, data)
            idx = importer_index[target] + (1 if f == "cloudwatch.csv" else 0)
            write("metrics_import", target + "_" + f, bytes([idx]) + data)
            write("metrics_import", "generic_" + f, bytes([6]) + data)

    # TensorBoard event file: file_version record, then one simple_value scalar.
    version = pb_field(1, 1, struct.pack("<d", 1.6e9)) + pb_field(3, 2, b"brain.Event:2")
    value = pb_field(1, 2, b"loss") + pb_field(2, 5, struct.pack("<f", 0.5))
    scalar = pb_field(1, 1, struct.pack("<d", 1.6e9 + 1)) + pb_field(2, 0, pb_varint(3)) + pb_field(5, 2, pb_field(1, 2, value))
    write("tfevents_import", "scalar.tfevents", tfrecord(version) + tfrecord(scalar))
    write("tfevents_import", "truncated.tfevents", (tfrecord(version) + tfrecord(scalar))[:-5])

    # XSpace: one plane "/host:CPU" with a line holding one event (metadata id 1 "op").
    ev_meta = pb_field(1, 0, pb_varint(1)) + pb_field(2, 2, b"op")
    ev = pb_field(1, 0, pb_varint(1)) + pb_field(2, 0, pb_varint(1000)) + pb_field(3, 0, pb_varint(5000))
    line = pb_field(1, 0, pb_varint(1)) + pb_field(2, 2, b"thread") + pb_field(3, 0, pb_varint(1600000000000000000)) + pb_field(4, 2, ev)
    entry = pb_field(1, 0, pb_varint(1)) + pb_field(2, 2, ev_meta)
    plane = pb_field(1, 0, pb_varint(1)) + pb_field(2, 2, b"/host:CPU") + pb_field(3, 2, line) + pb_field(4, 2, entry)
    space = pb_field(1, 2, plane) + pb_field(4, 2, b"host0")
    write("xplane_import", "host.xplane.pb", space)
    write("xplane_import", "gpu.xplane.pb", pb_field(1, 2, plane.replace(b"/host:CPU", b"/device:GPU:0")))

if __name__ == "__main__":
    main()
