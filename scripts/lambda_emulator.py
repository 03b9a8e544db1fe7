"""Lambda as it runs functions, on 127.0.0.1: the Runtime API a function process polls, and the
Invoke API callers use (`POST /2015-03-31/functions/{name}/invocations`).

Used by `scripts/bench-lambda` (each function's start, invoke times and memory) and
`scripts/cloud-e2e` (the state machine driving the functions). A function here is a release or
debug build of one binary of `functions/lambdas`, started as Lambda starts it: with
`AWS_LAMBDA_RUNTIME_API` naming its own Runtime API, from which it takes one event at a time.
"""
import http.client
import http.server
import json
import pathlib
import queue
import socket
import statistics
import subprocess
import threading
import time
import urllib.parse
import uuid

RUNTIME = "/2018-06-01/runtime"


class RuntimeApi(http.server.ThreadingHTTPServer):
    """The Lambda Runtime API for one function process: hands out queued events, collects answers."""

    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), RuntimeHandler)
        self.events = queue.Queue()
        self.answers = queue.Queue()
        self.ready = threading.Event()
        self.ready_at = None
        self.init_error = None

    def handle_error(self, request, client_address):
        pass  # a function stopped while waiting for work: its connection resets, nothing more

    @property
    def address(self):
        return f"127.0.0.1:{self.server_address[1]}"


class RuntimeHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":  # a streamed response
            data = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass  # trailers
                    return data
                data += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length", 0)))

    def reply(self, status, payload=b"{}", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        try:
            self.wfile.write(payload)
        except BrokenPipeError:
            pass  # the function went on without reading our acknowledgement

    def do_GET(self):
        api = self.server
        if self.path != f"{RUNTIME}/invocation/next":
            return self.reply(404)
        if not api.ready.is_set():
            api.ready_at = time.perf_counter()
            api.ready.set()
        request_id, event = api.events.get()
        api.started = time.perf_counter()
        deadline = int(time.time() * 1000) + 900_000
        self.reply(200, event, [
            ("Lambda-Runtime-Aws-Request-Id", request_id),
            ("Lambda-Runtime-Deadline-Ms", str(deadline)),
            ("Lambda-Runtime-Invoked-Function-Arn", "arn:aws:lambda:us-east-1:123456789012:function:bench"),
            ("Lambda-Runtime-Trace-Id", "Root=1-00000000-000000000000000000000000"),
        ])

    def do_POST(self):
        api = self.server
        body = self.body()
        if self.path == f"{RUNTIME}/init/error":
            api.init_error = body.decode(errors="replace")
            api.ready.set()
            return self.reply(202)
        if self.path.endswith("/response") or self.path.endswith("/error"):
            api.answers.put((time.perf_counter() - api.started, self.path.endswith("/error"), body))
            return self.reply(202)
        self.reply(404)


def peak_rss_mib(pid):
    status = pathlib.Path(f"/proc/{pid}/status").read_text()
    kib = next(int(l.split()[1]) for l in status.splitlines() if l.startswith("VmHWM:"))
    return kib / 1024


class LiveFunction:
    """One function process behind its own Runtime API, kept running between invokes."""

    def __init__(self, name, env, binaries, log=None, meter=None):
        """Start `binaries/name` with `env`; its stdout and stderr go to the file `log` (appended)
        or nowhere. With a `meter` (a `StoreMeter` the function's `AWS_ENDPOINT_URL` points
        at), each invoke's time waiting on the stores is told apart from its own."""
        self.name = name
        self.meter = meter
        self.own_times = []
        self.api = RuntimeApi()
        threading.Thread(target=self.api.serve_forever, daemon=True).start()
        started = time.perf_counter()
        output = open(log, "ab") if log else subprocess.DEVNULL
        self.proc = subprocess.Popen(
            [str(pathlib.Path(binaries) / name)],
            env=dict(env, AWS_LAMBDA_RUNTIME_API=self.api.address, AWS_LAMBDA_FUNCTION_NAME=name),
            stdout=output, stderr=output)
        if log:
            output.close()
        if not self.api.ready.wait(30) or self.api.init_error:
            raise RuntimeError(f"{name} did not start: {self.api.init_error}")
        self.init_ms = (self.api.ready_at - started) * 1000
        self.times, self.outcome = [], "ok"

    def call(self, event):
        """Invoke with the raw `event`; the answer, as JSON. A failure is kept as the outcome."""
        waited = self.meter.seconds if self.meter else 0.0
        self.api.events.put((str(uuid.uuid4()), event))
        seconds, failed, body = self.api.answers.get(timeout=120)
        self.times.append(seconds * 1000)
        if self.meter:
            self.own_times.append((seconds - (self.meter.seconds - waited)) * 1000)
        try:
            answer = json.loads(body or b"{}")
        except ValueError:  # a streamed response (api-stream): its prelude, then the events
            answer = {"streamed": body.decode(errors="replace")}
        if failed:
            self.outcome = answer.get("errorType", "error")
        return answer

    def invoke(self, payload):
        """Invoke with `payload`; its answer, or an exception when the function failed."""
        answer = self.call(json.dumps(payload).encode())
        if self.outcome != "ok":
            raise RuntimeError(f"{self.name}: {answer}")
        return answer

    def stop(self, unit="invokes"):
        """End the process; its row."""
        warm = statistics.median(self.times[1:]) if len(self.times) > 1 else float("nan")
        own = statistics.median(self.own_times[1:]) if len(self.own_times) > 1 else float("nan")
        row = {"function": self.name, "init_ms": self.init_ms, "first_ms": self.times[0],
               "warm_ms": warm, "own_ms": own, "rss_mib": peak_rss_mib(self.proc.pid),
               "outcome": f"{self.outcome} ({len(self.times)} {unit})"}
        self.proc.terminate()
        self.proc.wait(10)
        self.api.shutdown()
        return row


class InvokeApi(http.server.ThreadingHTTPServer):
    """The Lambda Invoke API over live functions: `POST /2015-03-31/functions/NAME/invocations`
    runs the event on an idle instance of NAME (a new one is started while fewer than
    `instances` run, as Lambda scales out) and answers with its result, or with its error and
    `X-Amz-Function-Error: Unhandled`. `functions` maps an invoked name to a binary's name."""

    daemon_threads = True

    def __init__(self, functions, env, binaries, log=None, instances=2):
        super().__init__(("127.0.0.1", 0), InvokeHandler)
        self.functions, self.env, self.binaries, self.log = functions, env, binaries, log
        self.instances = instances
        self.idle = {name: queue.Queue() for name in functions}
        self.started = {name: [] for name in functions}
        self.lock = threading.Lock()
        self.invocations = []  # (function, payload bytes, failed, answer bytes), in order
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server_address[1]}"

    def handle_error(self, request, client_address):
        pass

    def acquire(self, name):
        with self.lock:
            try:
                return self.idle[name].get_nowait()
            except queue.Empty:
                if len(self.started[name]) < self.instances:
                    function = LiveFunction(self.functions[name], self.env, self.binaries, self.log)
                    self.started[name].append(function)
                    return function
        return self.idle[name].get(timeout=900)

    def invoke(self, name, payload):
        """Run `payload` (bytes) on `name`; (failed, answer bytes)."""
        function = self.acquire(name)
        try:
            function.api.events.put((str(uuid.uuid4()), payload))
            seconds, failed, body = function.api.answers.get(timeout=900)
            function.times.append(seconds * 1000)
        finally:
            self.idle[name].put(function)
        self.invocations.append((name, payload, failed, body))
        return failed, body

    def stop(self):
        for instances in self.started.values():
            for function in instances:
                function.proc.terminate()
        for instances in self.started.values():
            for function in instances:
                try:
                    function.proc.wait(10)
                except subprocess.TimeoutExpired:
                    function.proc.kill()
                function.api.shutdown()
        self.shutdown()


class InvokeHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        parts = self.path.split("/")
        # /2015-03-31/functions/NAME/invocations
        if len(parts) != 5 or parts[1:3] != ["2015-03-31", "functions"] or parts[4] != "invocations":
            return self.answer(404, b'{"Type":"User","message":"unknown path"}')
        name = parts[3]
        payload = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if name not in self.server.functions:
            return self.answer(404, json.dumps({"Type": "User", "message": f"Function not found: {name}"}).encode())
        failed, body = self.server.invoke(name, payload)
        self.answer(200, body or b"null", [("X-Amz-Function-Error", "Unhandled")] if failed else [])

    def answer(self, status, body, headers=()):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except BrokenPipeError:
            pass


class StoreMeter(http.server.ThreadingHTTPServer):
    """A pass-through proxy in front of the AWS emulator that adds up the time its requests
    take (`seconds`): point one function's `AWS_ENDPOINT_URL` at it to tell the function's own
    time from the emulator's (moto answers one request at a time, slower than the services)."""

    daemon_threads = True

    def __init__(self, upstream):
        super().__init__(("127.0.0.1", 0), MeterHandler)
        self.upstream = urllib.parse.urlsplit(upstream)
        self.seconds = 0.0
        self.lock = threading.Lock()
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server_address[1]}"


class MeterHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        # headers and body leave in separate writes: without this, Nagle's algorithm and the
        # client's delayed ACK add ~40 ms to every answer
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, *args):
        pass

    def forward(self):
        body = RuntimeHandler.body(self) if self.command not in ("GET", "HEAD") else b""
        headers = {k: v for k, v in self.headers.items() if k.lower() != "transfer-encoding"}
        headers["Content-Length"] = str(len(body))
        meter = self.server
        started = time.perf_counter()
        connection = http.client.HTTPConnection(meter.upstream.hostname, meter.upstream.port, timeout=120)
        connection.request(self.command, self.path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        with meter.lock:
            meter.seconds += time.perf_counter() - started
        self.send_response(response.status)
        for name, value in response.getheaders():
            if name.lower() not in ("transfer-encoding", "content-length", "connection"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = forward
