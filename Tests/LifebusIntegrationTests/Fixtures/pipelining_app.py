# An app peer that pipelines MARKS marks and TASKS beginBackgroundTask/endBackgroundTask pairs as fast as the broker
# takes them (one writer thread) and reads every answer as fast as it can (a reader thread, which now and then is
# descheduled for 0.3 s, as on a busy machine). Prints a JSON summary: counts, errors, and whether it was dropped.
# Usage: pipelining_app.py SOCKET APP_ID MARKS TASKS
import json, os, socket, sys, threading, time, collections
path, app, marks, tasks = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
sock.connect(path)
def line(message):
    return (json.dumps(message, separators=(",", ":")) + "\n").encode()
control = collections.deque()   # answers to callbacks and endBackgroundTask requests, sent by the writer
wake = threading.Event()
done = threading.Event()
state = {"marks": 0, "began": 0, "ended": 0, "errors": [], "callbacks": 0, "open": 0, "dropped": False}
lock = threading.Lock()
def writer():
    sock.sendall(line({"jsonrpc": "2.0", "id": "hello", "method": "hello",
                       "params": {"role": "app", "protocolVersion": 1, "app": {"id": app}}}))
    sent_marks = sent_tasks = 0
    while not done.is_set():
        chunk = []
        while control:
            chunk.append(control.popleft())
        for _ in range(min(200, marks - sent_marks)):
            chunk.append(line({"jsonrpc": "2.0", "id": "m%d" % sent_marks, "method": "mark",
                               "params": {"name": "m", "data": {"i": sent_marks}}}))
            sent_marks += 1
        with lock:
            room = 16 - state["open"]
            if sent_tasks < tasks and room > 0:
                burst = min(room, tasks - sent_tasks)
                state["open"] += burst
            else:
                burst = 0
        for _ in range(burst):
            chunk.append(line({"jsonrpc": "2.0", "id": "b%d" % sent_tasks, "method": "beginBackgroundTask",
                               "params": {}}))
            sent_tasks += 1
        if chunk:
            try:
                sock.sendall(b"".join(chunk))
            except OSError:
                return
        else:
            wake.wait(0.01)
            wake.clear()
def reader():
    buffer = b""
    received = 0
    while True:
        data = sock.recv(1 << 16)
        if not data:
            state["dropped"] = not done.is_set()
            done.set()
            return
        buffer += data
        *lines, buffer = buffer.split(b"\n")
        for text in lines:
            message = json.loads(text)
            ident = message.get("id")
            if "method" in message:
                if ident is not None:
                    state["callbacks"] += 1
                    control.append(line({"jsonrpc": "2.0", "id": ident, "result": {}}))
                    wake.set()
                continue
            received += 1
            if received % 25000 == 0:
                time.sleep(0.3)  # descheduled, as on a busy machine: still a reader
            if "error" in message:
                state["errors"].append(message)
                if str(ident).startswith("b"):
                    with lock:
                        state["open"] -= 1
                continue
            if ident == "hello":
                continue
            kind = str(ident)[0]
            if kind == "m":
                state["marks"] += 1
            elif kind == "b":
                state["began"] += 1
                control.append(line({"jsonrpc": "2.0", "id": "e" + ident[1:], "method": "endBackgroundTask",
                                     "params": {"taskID": message["result"]["taskID"]}}))
                wake.set()
            elif kind == "e":
                state["ended"] += 1
                with lock:
                    state["open"] -= 1
        if state["marks"] == marks and state["ended"] + len(state["errors"]) >= tasks:
            done.set()
            return
threads = [threading.Thread(target=writer), threading.Thread(target=reader)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
state["errors"] = state["errors"][:5]
print(json.dumps(state), flush=True)
