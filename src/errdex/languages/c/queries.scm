; C error sites: printf-style calls by name. c_family.py knows what each one prints.
(call_expression
  function: (identifier) @call.name
  arguments: (argument_list) @call.args
  (#any-of? @call.name
    "fprintf" "fputs" "dprintf" "perror" "err" "errx" "warn" "warnx" "die" "fatal"
    "die_errno" "error" "error_errno" "warning" "panic" "syslog")) @call
