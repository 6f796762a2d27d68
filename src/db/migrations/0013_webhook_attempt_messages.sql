-- A failed attempt's `error` is fixed words members may read on the dashboard
-- (src/webhooks/attemptFailures.ts); the cause goes to the worker's log. Attempts recorded before kept
-- the raw DNS, TLS or socket error text: each takes the fixed words it comes to.
UPDATE webhook_attempts SET error = CASE
    WHEN error LIKE 'no response within %' THEN 'the receiver did not answer in time'
    WHEN error LIKE 'rejected before connecting:%could not be resolved%' THEN 'the receiver’s name could not be resolved'
    WHEN error LIKE 'rejected before connecting:%' THEN 'the address is not public'
    WHEN error LIKE 'attempt did not complete:%' THEN 'the attempt did not complete'
    WHEN error ~* 'certificate|ssl|tls' THEN 'the TLS connection to the receiver failed'
    ELSE 'the receiver could not be reached'
  END
WHERE error IS NOT NULL AND error NOT IN (
  'the address is not public',
  'the receiver’s name could not be resolved',
  'the TLS connection to the receiver failed',
  'the receiver did not answer in time',
  'the receiver could not be reached',
  'the attempt did not complete'
);
