import CQuotectlStart
import QuoteBase
import QuoteSystem
import QuotectlCommands

// quotectl: reads the quoted store. No Foundation, so it starts like a C program. What is the
// process's alone is done here: the start's own setting taken back (CQuotectlStart), SIGPIPE
// ignored (a closed pipe is a write's error), the locale, and the exit; the commands are
// QuotectlCommands', run with the program's own context.
quotectl_start_done()
CurrentProcess.ignoreBrokenPipe()
let words = Environment.arguments()
if Quotectl.speaksTheUsersLanguage(words) { speakTheUsersLanguage() }
CurrentProcess.exit(Quotectl.run(words, context: .program).rawValue)
