"""A small Chrome DevTools Protocol client over --remote-debugging-pipe (Python stdlib only).

Chromium reads commands on fd 3 and writes replies and events on fd 4, each a JSON text ended
by NUL. The gallery's browser tests (gallery_check.py) drive headless Chromium with it.
"""
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    raise SystemExit("no chromium on PATH (make setup-test installs Debian's chromium)")


class Browser:
    def __init__(self, width, height):
        self.profile = tempfile.mkdtemp(prefix="photosync-chromium-")
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()
        # Chromium expects its pipe ends as fd 3 and 4. dup2 makes them inheritable; close_fds would
        # close them again after this runs, and Python's own descriptors are not inheritable anyway.
        # Copied above 10 first: a pipe end may already be fd 3 or 4, and dup2 onto itself would
        # leave it close-on-exec.
        def place_fds():
            high_r, high_w = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10), fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)
        args = [find_chromium(), "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
                "--user-data-dir=" + self.profile, "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking", "--disable-sync",
                "--hide-scrollbars", "--mute-audio", f"--window-size={width},{height}", "about:blank"]
        self.process = subprocess.Popen(args, preexec_fn=place_fds, close_fds=False,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.dialogs = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page.enable", "Runtime.enable"):
            self.call(domain, session=True)
        self.call("Emulation.setDeviceMetricsOverride", session=True, width=width, height=height,
                  deviceScaleFactor=1, mobile=width < 600)

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.from_chrome], [], [], left)[0]:
                raise TimeoutError("chromium did not answer in time")
            chunk = os.read(self.from_chrome, 65536)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def _note(self, message):
        self.events.append(message)
        if message.get("method") == "Page.javascriptDialogOpening":
            self.dialogs.append(message["params"].get("message", ""))
            # Dismiss it, or the page stays blocked.
            self._send("Page.handleJavaScriptDialog", message.get("sessionId"), accept=False)

    def _send(self, method, session_id, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session_id:
            message["sessionId"] = session_id
        os.write(self.to_chrome, json.dumps(message).encode() + b"\0")
        return self.next_id

    def call(self, method, session=False, timeout=60, **params):
        wanted = self._send(method, self.session if session else None, **params)
        deadline = time.monotonic() + timeout
        while True:
            message = self._read_message(deadline)
            if message.get("id") == wanted:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self._note(message)

    def wait_for(self, method, timeout=60):
        deadline = time.monotonic() + timeout
        for index, message in enumerate(self.events):
            if message.get("method") == method:
                del self.events[index]
                return message
        while True:
            message = self._read_message(deadline)
            self._note(message)
            if message.get("method") == method:
                self.events.remove(message)
                return message

    def goto(self, url):
        self.events = [e for e in self.events if e.get("method") != "Page.loadEventFired"]
        result = self.call("Page.navigate", session=True, url=url)
        if result.get("errorText"):
            raise RuntimeError(f"navigating to {url}: {result['errorText']}")
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", session=True, expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def click(self, selector):
        """Follows the first link matching `selector` as a person would (a real click), and waits for the page."""
        self.events = [e for e in self.events if e.get("method") != "Page.loadEventFired"]
        box = self.evaluate(f"(() => {{ const e = document.querySelector({json.dumps(selector)}); if (!e) return null;"
                            " e.scrollIntoView(); const r = e.getBoundingClientRect();"
                            " return [r.left + r.width / 2, r.top + r.height / 2]; })()")
        if box is None:
            raise AssertionError(f"no element matches {selector} on {self.evaluate('location.href')}")
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", session=True, type=kind, x=box[0], y=box[1], button="left", clickCount=1)
        self.wait_for("Page.loadEventFired")

    def wait_until(self, expression, timeout=60):
        """Polls `expression` until it is true (a page restored from the back-forward cache fires no load event)."""
        deadline = time.monotonic() + timeout
        while not self.evaluate(expression):
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {expression}")
            time.sleep(0.1)

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", session=True, format="png")["data"]
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))
