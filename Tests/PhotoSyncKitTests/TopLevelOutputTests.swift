import ArgumentParser
import Foundation
import PhotoSyncTestSupport
import Testing
@testable import PhotoSyncKit

/// What the executable prints at the top level: help on stdout, every failure as one stderr line.
@Suite("Top-level output", .removesTemporaryFiles, .onTestThreads)
struct TopLevelOutputTests {
    /// Runs `execute` with the top-level text captured.
    private func run(_ arguments: [String]) -> (stdout: String, stderr: String, status: Int32) {
        var stdout = "", stderr = ""
        let status = PhotoSyncCommand.execute(arguments, output: { stdout += $0 }, error: { stderr += $0 })
        return (stdout, stderr, status)
    }

    @Test(
        "usage errors are one stderr line and exit 64",
        arguments: [
            ["fetch", "--pages", "0"], ["fetch", "--per-page", "501"], ["fetch", "--timeout", "0"],
            ["fetch", "--url", "ftp://example.com/"], ["fetch", "--merge-policy", "newest"], ["fetch", "--pages"],
            ["fetch", "--pages", "many"], ["fetch", "--bogus"], ["delete"], ["delete", "1", "--photographer", "Ana Lima"],
            ["list", "--format", "xml"], ["list", "--limit", "0"], ["list", "extra"], ["--verbose", "--quiet", "status"],
            ["frobnicate"], ["--db"],
        ])
    func usageErrorsAreOneLine(arguments: [String]) {
        let result = run(arguments)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("photosync: "), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("\n"))
        #expect(result.stderr.filter(\.isNewline).count == 1, "\(result.stderr)")
        #expect(!result.stderr.contains("Usage:") && !result.stderr.contains("Error:"), "\(result.stderr)")
        #expect(result.stderr.count > "photosync: ".count + 5)
    }

    @Test("a usage error names the problem and the help to read")
    func usageLineContent() {
        #expect(run(["fetch", "--pages", "0"]).stderr == "photosync: --pages must be at least 1 (see 'photosync fetch --help')\n")
        #expect(run(["fetch", "--bogus"]).stderr.contains("'--bogus'"))
        #expect(run(["--verbose", "--quiet", "list"]).stderr.contains("--verbose and --quiet cannot be used together"))
        #expect(run(["fetch", "--merge-policy", "newest"]).stderr.contains("newest"))
    }

    @Test("help goes to stdout with status 0", arguments: [["--help"], ["fetch", "--help"], ["help", "list"], ["-h"], []])
    func helpIsNormal(arguments: [String]) {
        let result = run(arguments)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.contains("USAGE: photosync"), "\(result.stdout)")
        #expect(result.stdout.filter(\.isNewline).count > 5)
    }

    @Test("--version prints the version on stdout")
    func version() {
        let result = run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == PhotoSyncVersion.current + "\n")
        #expect(result.stderr.isEmpty)
    }

    @Test("--generate-completion-script prints the script on stdout")
    func completionRequest() {
        let result = run(["--generate-completion-script", "bash"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.contains("photographers"))
    }

    @Test("completion scripts cover every subcommand", arguments: [CompletionShell.bash, .zsh, .fish])
    func completionScripts(shell: CompletionShell) {
        let script = PhotoSyncCommand.completionScript(for: shell)
        for subcommand in ["fetch", "list", "photographers", "delete", "status"] {
            #expect(script.contains(subcommand), "\(shell) script lacks \(subcommand)")
        }
        #expect(script.contains("merge-policy"))
    }

    @Test("errors thrown by commands keep their status and stay one line")
    func runErrors() {
        // Already reported by reportingErrors: nothing more is printed.
        #expect(TopLevelOutcome(for: ExitCode(78)) == TopLevelOutcome(status: 78))
        #expect(
            TopLevelOutcome(for: PhotoSyncError.network("page 2:\nserver answered HTTP 503"))
                == TopLevelOutcome(standardError: "photosync: page 2: server answered HTTP 503\n", status: 69))
        let other = TopLevelOutcome(for: CocoaError(.fileReadUnknown))
        #expect(other.status == 70)
        #expect(other.standardError.hasPrefix("photosync: internal error: "))
        #expect(other.standardError.filter(\.isNewline).count == 1)
    }

    @Test("a failing command prints its own line and returns its status")
    func runFailureStatus() throws {
        let directory = try makeTemporaryDirectory()
        let result = run(["list", "--db", directory + "/c.sqlite", "--config", directory + "/missing.yaml"])
        #expect(result.status == 78)
        #expect(result.stdout.isEmpty && result.stderr.isEmpty)
    }
}
