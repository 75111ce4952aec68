#!/usr/bin/env python3
"""Hostile clients of serve --grpc, for tst_grpc_hostile: each attack is bounded in time and
prints one line of JSON with what it saw. Run as: grpc_hostile.py ATTACK PORT [SOURCE_ADDR].

  idle N        N TCP connections that send nothing, held 2 s; counts the GOAWAYs received
  streams N     one connection, initial window 0, never reads: N streams of ShouldRateLimit
  reset N       one connection: N x (HEADERS + RST_STREAM), the rapid-reset pattern
  big           three 3.9 MB requests of 560,000 one-entry descriptors (python3-grpcio)
  overrides N   N requests, each a descriptor with a limit on 32 unconfigured 8 KB keys
  wire          refusals on the gRPC wire (python3-h2): an unknown method, a compressed
                message, a content-type that is not gRPC, a grpc-timeout of 1 ms, and a header
                block of CONTINUATION frames that never ends
"""
import json
import resource
import socket
import sys
import time

METHOD = "/envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit"


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field(number, payload):
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def request(domain, descriptors):
    """A RateLimitRequest: descriptors a list of ([(key, value)], limit or None)."""
    body = field(1, domain.encode())
    for entries, limit in descriptors:
        d = b"".join(field(1, field(1, k.encode()) + field(2, v.encode())) for k, v in entries)
        if limit is not None:
            per_unit, unit = limit
            d += field(2, varint(1 << 3) + varint(per_unit) + varint(2 << 3) + varint(unit))
        body += field(2, d)
    return body


def framed(message):
    return b"\0" + len(message).to_bytes(4, "big") + message


def connect(port, source):
    """From `source` to the service's loopback address of its family (::1 for an IPv6 one)."""
    v6 = ":" in source
    s = socket.socket(socket.AF_INET6 if v6 else socket.AF_INET, socket.SOCK_STREAM)
    s.bind((source, 0))
    s.connect(("::1" if v6 else "127.0.0.1", port))
    return s


def idle(port, source, n):
    resource.setrlimit(resource.RLIMIT_NOFILE, (n + 64, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
    socks, failed = [], 0
    for _ in range(n):
        try:
            socks.append(connect(port, source))
        except OSError:
            failed += 1
    deadline = time.monotonic() + 2
    goaway = 0
    for s in socks:
        s.settimeout(max(0.001, deadline - time.monotonic()) if goaway == 0 else 0.001)
        try:
            data = s.recv(4096)
        except OSError:
            continue
        # SETTINGS then GOAWAY (type 7) with ENHANCE_YOUR_CALM.
        if len(data) >= 18 and data[9 + 3] == 7:
            goaway += 1
    time.sleep(max(0.0, deadline - time.monotonic()))
    for s in socks:
        s.close()
    return {"opened": len(socks), "failed": failed, "goaway": goaway}


HEADERS = [(":method", "POST"), (":scheme", "http"), (":path", METHOD),
           (":authority", "sluice"), ("content-type", "application/grpc"), ("te", "trailers")]


def frame(kind, flags, stream, payload=b""):
    return len(payload).to_bytes(3, "big") + bytes([kind, flags]) + stream.to_bytes(4, "big") + payload


def streams(port, source, n, reset):
    """Raw HTTP/2 frames (hpack from python3-h2's dependencies), as a hostile client writes
    them: MAX_CONCURRENT_STREAMS is ignored, the server's frames are never read. `reset`:
    HEADERS then RST_STREAM (CANCEL) at once; else HEADERS + DATA (a whole request) on a
    connection whose initial window is 0, so no answer can be written."""
    import hpack

    s = connect(port, source)
    block = hpack.Encoder().encode(HEADERS, huffman=False)
    body = framed(request("edge", [([("remote_address", "10.9.9.9")], None)]))
    window = 65535 if reset else 0
    s.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" +
              frame(4, 0, 0, (4).to_bytes(2, "big") + window.to_bytes(4, "big")))
    sent, closed, deadline = 0, False, time.monotonic() + 4
    s.settimeout(3)
    try:
        while sent < n and time.monotonic() < deadline:
            sid = 1 + 2 * sent
            if reset:
                out = frame(1, 0x4, sid, block) + frame(3, 0, sid, (8).to_bytes(4, "big"))
            else:
                out = frame(1, 0x4, sid, block) + frame(0, 0x1, sid, body)
            s.sendall(out)
            sent += 1
            if reset and sent % 8 == 0:
                # Paced (800 a second): the calls end as fast as they come, so it is the
                # resets that close the connection, not the calls left unfinished.
                time.sleep(0.01)
    except OSError:
        closed = True
    # Closed by the server: reading what it sent ends (EOF or a reset) within the deadline.
    s.settimeout(0.2)
    while not closed and time.monotonic() < deadline + 2:
        try:
            if not s.recv(65536):
                closed = True
        except socket.timeout:
            continue
        except OSError:
            closed = True
    s.close()
    return {"sent": sent, "closed": closed}


def big(port):
    import grpc

    d = field(2, field(1, field(1, b"k")))
    message = field(1, b"edge") + d * 560000
    channel = grpc.insecure_channel("127.0.0.1:%d" % port,
                                    options=[("grpc.max_send_message_length", -1)])
    call = channel.unary_unary(METHOD)
    codes = []
    for _ in range(3):
        try:
            call(message, timeout=20)
            codes.append("OK")
        except grpc.RpcError as e:
            codes.append(e.code().name + ": " + e.details())
    return {"bytes": len(message), "answers": codes}


def overrides(port, n):
    import grpc

    channel = grpc.insecure_channel("127.0.0.1:%d" % port)
    call = channel.unary_unary(METHOD)
    counts = {}
    for i in range(n):
        entries = [("%05d-%02d-" % (i, j) + "k" * 8180, "v") for j in range(32)]
        try:
            call(request("edge", [(entries, (5, 2))]), timeout=20)
            key = "OK"
        except grpc.RpcError as e:
            key = e.code().name
        counts[key] = counts.get(key, 0) + 1
    return counts


def answer(port, headers, body, end=True):
    """One request on a connection of its own (python3-h2): the response's headers and
    trailers as one dict."""
    import h2.config
    import h2.connection
    import h2.events

    s = connect(port, "127.0.0.1")
    s.settimeout(5)
    c = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    c.initiate_connection()
    c.send_headers(1, headers, end_stream=body is None)
    if body is not None:
        c.send_data(1, body, end_stream=end)
    s.sendall(c.data_to_send())
    seen, done = {}, False
    while not done:
        data = s.recv(65536)
        if not data:
            break
        for e in c.receive_data(data):
            if isinstance(e, (h2.events.ResponseReceived, h2.events.TrailersReceived)):
                seen.update({k.decode(): v.decode() for k, v in e.headers})
            if isinstance(e, (h2.events.StreamEnded, h2.events.StreamReset)):
                done = True
        s.sendall(c.data_to_send())
    s.close()
    return seen


def continuations(port):
    """HEADERS without END_HEADERS, then CONTINUATION frames of one header each, without end
    (4 MB at most): whether the service closed the connection (a GOAWAY, then EOF)."""
    import hpack

    s = connect(port, "127.0.0.1")
    s.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + frame(4, 0, 0))
    s.sendall(frame(1, 0, 1, hpack.Encoder().encode(HEADERS, huffman=False)))
    enc = hpack.Encoder()
    sent, closed = 0, False
    s.settimeout(2)
    try:
        while sent < 4 << 20:
            block = enc.encode([("x-flood", "y" * 1000)], huffman=False)
            s.sendall(frame(9, 0, 1, block) * 16)
            sent += 16 * len(block)
    except OSError:
        closed = True
    while not closed:
        try:
            closed = not s.recv(65536)
        except socket.timeout:
            break
        except OSError:
            closed = True
    s.close()
    return sent, closed


def idleclose(port):
    """The preface and SETTINGS, then nothing: when the service says GOAWAY, with which error
    code, and whether it closes the connection after it."""
    s = connect(port, "127.0.0.1")
    start = time.monotonic()
    s.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + frame(4, 0, 0))
    s.settimeout(10)
    data, out = b"", {"goaway": False, "closed": False}
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                out["closed"] = True
                break
            data += chunk
            while len(data) >= 9:
                size = int.from_bytes(data[0:3], "big")
                if len(data) < 9 + size:
                    break
                kind, payload = data[3], data[9:9 + size]
                if kind == 4 and data[4] & 1 == 0:
                    s.sendall(frame(4, 1, 0))  # ACK the service's SETTINGS
                if kind == 7:
                    out["goaway"] = True
                    out["after_s"] = round(time.monotonic() - start, 3)
                    out["error_code"] = int.from_bytes(payload[4:8], "big")
                data = data[9 + size:]
    except OSError as e:
        out["error"] = str(e)
    s.close()
    return out


def wire(port):
    ok = framed(request("edge", [([("remote_address", "10.7.7.7")], None)]))
    out = {}
    out["unknown_method"] = answer(port, [(k, "/no.Such/Method" if k == ":path" else v)
                                          for k, v in HEADERS], ok).get("grpc-status")
    compressed = answer(port, HEADERS + [("grpc-encoding", "gzip")], b"\1" + ok[1:])
    out["compressed"] = [compressed.get("grpc-status"), compressed.get("grpc-accept-encoding")]
    out["content_type"] = answer(port, [(k, "text/plain" if k == "content-type" else v)
                                        for k, v in HEADERS], ok).get(":status")
    out["ok"] = answer(port, HEADERS, ok).get("grpc-status")
    out["half"] = answer(port, HEADERS, ok[:-2]).get("grpc-status")
    sent, closed = continuations(port)
    out["continuation_bytes"], out["continuation_closed"] = sent, closed
    return out


def main():
    attack, port = sys.argv[1], int(sys.argv[2])
    arg = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    source = sys.argv[4] if len(sys.argv) > 4 else "127.0.0.1"
    if attack == "idle":
        out = idle(port, source, arg)
    elif attack in ("streams", "reset"):
        out = streams(port, source, arg, attack == "reset")
    elif attack == "big":
        out = big(port)
    elif attack == "wire":
        out = wire(port)
    elif attack == "idleclose":
        out = idleclose(port)
    else:
        out = overrides(port, arg)
    print(json.dumps(out), flush=True)


main()
