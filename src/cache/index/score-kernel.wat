;; The loops of packed-search.ts over every posting and every matched document, as
;; WebAssembly: a `recall` process runs them once and exits, so as JavaScript they ran in
;; V8's interpreter until its optimizing compiler (on another thread) caught up — about 80 ms
;; of a cold query at 100,000 memories against 25 ms warm. WebAssembly is compiled before it
;; runs (Liftoff), so the first query runs as fast as the hundredth.
;;
;; The arithmetic is MiniSearch's BM25+ in the order packed-search.ts documents; f64 is IEEE
;; 754 here as in JavaScript, so the scores are equal to the last bit.
;;
;; Arrays are byte offsets into the imported memory, laid out by packed-search.ts; 0 means
;; "no such array" (nothing is ever placed at offset 0). Assembled by `npm run wasm`
;; (scripts/wasm.mjs) into score-kernel-bytes.ts.
(module
  (import "env" "memory" (memory 1))
  ;; A document's length in a field when the columns do not have it (NaN: none).
  (import "env" "lengthOf" (func $lengthOf (param i32 i32) (result f64)))
  ;; A document's score multiplier (0: dropped), asked once per document.
  (import "env" "boostOf" (func $boostOf (param i32) (result f64)))

  ;; One term's postings in one field, `pairs` (document, frequency) pairs at `post`, added
  ;; to `termScore` (f64 per document). A document is appended to `touched` (i32) when first
  ;; scored; returns the new length. `boostMode`: 0 none, 1 `boostMask[doc]` (u8) 1 gives
  ;; `boostFactor`, 2 `$boostOf` cached in `docBoost` (f64, NaN: not yet asked).
  (func (export "scoreSection")
    (param $post i32) (param $pairs i32)
    (param $termScore i32) (param $touched i32) (param $touchedLen i32)
    (param $boostMode i32) (param $boostMask i32) (param $boostFactor f64) (param $docBoost i32)
    (param $live i32)
    (param $lengths i32) (param $present i32) (param $fieldCount i32) (param $fieldId i32)
    (param $weight f64) (param $idf f64) (param $avg f64) (param $k f64) (param $b f64) (param $d f64)
    (param $derivedWords i32) (param $derivedBit i32)
    (result i32)
    (local $j i32) (local $end i32) (local $doc i32) (local $boost f64) (local $length f64)
    (local $raw i32) (local $freq f64) (local $at i32) (local $k1 f64) (local $oneMinusB f64)
    (local.set $k1 (f64.add (local.get $k) (f64.const 1)))
    (local.set $oneMinusB (f64.sub (f64.const 1) (local.get $b)))
    (local.set $j (local.get $post))
    (local.set $end (i32.add (local.get $post) (i32.shl (local.get $pairs) (i32.const 3))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $j) (local.get $end)))
        (block $skip
          (local.set $doc (i32.load (local.get $j)))
          (if (local.get $live)
            (then (br_if $skip (i32.eqz (i32.load8_u (i32.add (local.get $live) (local.get $doc)))))))
          (local.set $boost (f64.const 1))
          (if (i32.eq (local.get $boostMode) (i32.const 1))
            (then
              (if (i32.load8_u (i32.add (local.get $boostMask) (local.get $doc)))
                (then (local.set $boost (local.get $boostFactor))))))
          (if (i32.eq (local.get $boostMode) (i32.const 2))
            (then
              (local.set $at (i32.add (local.get $docBoost) (i32.shl (local.get $doc) (i32.const 3))))
              (local.set $boost (f64.load (local.get $at)))
              (if (f64.ne (local.get $boost) (local.get $boost))
                (then
                  (local.set $boost (call $boostOf (local.get $doc)))
                  (f64.store (local.get $at) (local.get $boost))))))
          ;; `if (!boost) continue`: 0 and NaN drop the document.
          (br_if $skip (i32.eqz (f64.ne (local.get $boost) (f64.const 0))))
          (br_if $skip (f64.ne (local.get $boost) (local.get $boost)))
          (if (i32.and (i32.ne (local.get $present) (i32.const 0))
                       (i32.eq (i32.load8_u (i32.add (local.get $present) (local.get $doc))) (i32.const 1)))
            (then
              (local.set $raw
                (i32.load (i32.add (local.get $lengths)
                  (i32.shl (i32.add (i32.mul (local.get $doc) (local.get $fieldCount)) (local.get $fieldId)) (i32.const 2)))))
              (local.set $length
                (select (f64.const nan) (f64.convert_i32_u (local.get $raw)) (i32.eq (local.get $raw) (i32.const -1)))))
            (else (local.set $length (call $lengthOf (local.get $doc) (local.get $fieldId)))))
          (local.set $freq (f64.convert_i32_u (i32.load offset=4 (local.get $j))))
          (local.set $at (i32.add (local.get $termScore) (i32.shl (local.get $doc) (i32.const 3))))
          (if (f64.eq (f64.load (local.get $at)) (f64.const 0))
            (then
              (i32.store (i32.add (local.get $touched) (i32.shl (local.get $touchedLen) (i32.const 2))) (local.get $doc))
              (local.set $touchedLen (i32.add (local.get $touchedLen) (i32.const 1)))))
          ;; termScore[doc] += weight * boost * (idf * (d + (freq * (k + 1)) / (freq + k * (1 - b + (b * length) / avg))))
          (f64.store (local.get $at)
            (f64.add (f64.load (local.get $at))
              (f64.mul
                (f64.mul (local.get $weight) (local.get $boost))
                (f64.mul (local.get $idf)
                  (f64.add (local.get $d)
                    (f64.div
                      (f64.mul (local.get $freq) (local.get $k1))
                      (f64.add (local.get $freq)
                        (f64.mul (local.get $k)
                          (f64.add (local.get $oneMinusB)
                            (f64.div (f64.mul (local.get $b) (local.get $length)) (local.get $avg)))))))))))
          (local.set $at (i32.add (local.get $derivedWords) (i32.shl (local.get $doc) (i32.const 2))))
          (i32.store (local.get $at) (i32.or (i32.load (local.get $at)) (local.get $derivedBit))))
        (local.set $j (i32.add (local.get $j) (i32.const 8)))
        (br $next)))
    (local.get $touchedLen))

  ;; How many of the `pairs` postings at `post` are of live documents (`live`: u8 per document).
  (func (export "liveCount") (param $post i32) (param $pairs i32) (param $live i32) (result i32)
    (local $j i32) (local $end i32) (local $count i32)
    (local.set $j (local.get $post))
    (local.set $end (i32.add (local.get $post) (i32.shl (local.get $pairs) (i32.const 3))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $j) (local.get $end)))
        (local.set $count (i32.add (local.get $count) (i32.load8_u (i32.add (local.get $live) (i32.load (local.get $j))))))
        (local.set $j (i32.add (local.get $j) (i32.const 8)))
        (br $next)))
    (local.get $count))

  ;; OR: one query term's scores (`termScore` of the `termLen` documents at `termTouched`,
  ;; reset to 0) added to `score`; the term (`queryBit` in the u32 `queryWords`) set for each
  ;; document, counting it in `quality` (and `uncounted`, when not 0) the first time;
  ;; documents not yet `seen` (u8) appended to `touched`. Returns the new length of `touched`.
  (func (export "addTermScores")
    (param $termTouched i32) (param $termLen i32) (param $termScore i32) (param $score i32)
    (param $queryWords i32) (param $queryBit i32) (param $quality i32) (param $uncounted i32)
    (param $seen i32) (param $touched i32) (param $touchedLen i32)
    (result i32)
    (local $t i32) (local $end i32) (local $doc i32) (local $at i32) (local $sat i32) (local $word i32)
    (local.set $t (local.get $termTouched))
    (local.set $end (i32.add (local.get $termTouched) (i32.shl (local.get $termLen) (i32.const 2))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $t) (local.get $end)))
        (local.set $doc (i32.load (local.get $t)))
        (local.set $at (i32.add (local.get $termScore) (i32.shl (local.get $doc) (i32.const 3))))
        (local.set $sat (i32.add (local.get $score) (i32.shl (local.get $doc) (i32.const 3))))
        (f64.store (local.get $sat) (f64.add (f64.load (local.get $sat)) (f64.load (local.get $at))))
        (f64.store (local.get $at) (f64.const 0))
        (local.set $at (i32.add (local.get $queryWords) (i32.shl (local.get $doc) (i32.const 2))))
        (local.set $word (i32.load (local.get $at)))
        (if (i32.eqz (i32.and (local.get $word) (local.get $queryBit)))
          (then
            (i32.store (local.get $at) (i32.or (local.get $word) (local.get $queryBit)))
            (local.set $at (i32.add (local.get $quality) (i32.shl (local.get $doc) (i32.const 2))))
            (i32.store (local.get $at) (i32.add (i32.load (local.get $at)) (i32.const 1)))
            (if (local.get $uncounted)
              (then
                (local.set $at (i32.add (local.get $uncounted) (i32.shl (local.get $doc) (i32.const 2))))
                (i32.store (local.get $at) (i32.add (i32.load (local.get $at)) (i32.const 1)))))))
        (local.set $at (i32.add (local.get $seen) (local.get $doc)))
        (if (i32.eqz (i32.load8_u (local.get $at)))
          (then
            (i32.store8 (local.get $at) (i32.const 1))
            (i32.store (i32.add (local.get $touched) (i32.shl (local.get $touchedLen) (i32.const 2))) (local.get $doc))
            (local.set $touchedLen (i32.add (local.get $touchedLen) (i32.const 1)))))
        (local.set $t (i32.add (local.get $t) (i32.const 4)))
        (br $next)))
    (local.get $touchedLen))

  ;; The result columns of the `length` documents at `kept` (i32): `raw[i]` its summed
  ;; score, `key[i]` that times its `quality` (or 1).
  (func (export "resultColumns")
    (param $kept i32) (param $length i32) (param $score i32) (param $quality i32) (param $raw i32) (param $key i32)
    (local $i i32) (local $doc i32) (local $s f64) (local $q i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $length)))
        (local.set $doc (i32.load (i32.add (local.get $kept) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $s (f64.load (i32.add (local.get $score) (i32.shl (local.get $doc) (i32.const 3)))))
        (local.set $q (i32.load (i32.add (local.get $quality) (i32.shl (local.get $doc) (i32.const 2)))))
        (f64.store (i32.add (local.get $raw) (i32.shl (local.get $i) (i32.const 3))) (local.get $s))
        (f64.store (i32.add (local.get $key) (i32.shl (local.get $i) (i32.const 3)))
          (f64.mul (local.get $s) (f64.convert_i32_s (select (local.get $q) (i32.const 1) (local.get $q)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next))))

  ;; How many query terms matched each of the `length` documents at `kept`: `quality[doc]`,
  ;; less `uncounted[doc]` when `uncounted` is not 0; into `counts` (i32). When `scores` is not
  ;; 0, also `raw[i]` (f64) times that count (at least 1) into `scores[i]` (f64): the ranking
  ;; key with only the counted terms (keyword-index.ts's `coordinate`).
  (func (export "termCounts")
    (param $kept i32) (param $length i32) (param $quality i32) (param $uncounted i32) (param $counts i32) (param $raw i32) (param $scores i32)
    (local $i i32) (local $doc i32) (local $q i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $length)))
        (local.set $doc (i32.shl (i32.load (i32.add (local.get $kept) (i32.shl (local.get $i) (i32.const 2)))) (i32.const 2)))
        (local.set $q (i32.load (i32.add (local.get $quality) (local.get $doc))))
        (if (local.get $uncounted)
          (then (local.set $q (i32.sub (local.get $q) (i32.load (i32.add (local.get $uncounted) (local.get $doc)))))))
        (i32.store (i32.add (local.get $counts) (i32.shl (local.get $i) (i32.const 2))) (local.get $q))
        (if (local.get $scores)
          (then (f64.store (i32.add (local.get $scores) (i32.shl (local.get $i) (i32.const 3)))
            (f64.mul (f64.load (i32.add (local.get $raw) (i32.shl (local.get $i) (i32.const 3))))
              (f64.convert_i32_s (select (local.get $q) (i32.const 1) (i32.gt_s (local.get $q) (i32.const 1))))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next))))

  ;; Feedback's second ranking (keyword-index.ts): the first pass's `firstLength` results
  ;; (documents, summed scores, counted query terms), then those of the feedback terms' pass;
  ;; per document (`score` f64, `count` i32, `firstAt`/`moreAt` i32 filled with -1) its sums
  ;; and where it is in either pass. `docs` (i32) gets the first pass's documents in their
  ;; order, then those only feedback found; `final` (f64) each one's score times its count
  ;; (at least 1). Returns the length of `docs`.
  (func (export "mergeFeedback")
    (param $firstLength i32) (param $firstDocs i32) (param $firstRaw i32) (param $firstCounts i32)
    (param $moreLength i32) (param $moreDocs i32) (param $moreRaw i32) (param $moreCounts i32)
    (param $score i32) (param $count i32) (param $firstAt i32) (param $moreAt i32)
    (param $docs i32) (param $final i32)
    (result i32)
    (local $i i32) (local $doc i32) (local $length i32) (local $at i32) (local $c i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $firstLength)))
        (local.set $doc (i32.load (i32.add (local.get $firstDocs) (i32.shl (local.get $i) (i32.const 2)))))
        (f64.store (i32.add (local.get $score) (i32.shl (local.get $doc) (i32.const 3)))
          (f64.load (i32.add (local.get $firstRaw) (i32.shl (local.get $i) (i32.const 3)))))
        (i32.store (i32.add (local.get $count) (i32.shl (local.get $doc) (i32.const 2)))
          (i32.load (i32.add (local.get $firstCounts) (i32.shl (local.get $i) (i32.const 2)))))
        (i32.store (i32.add (local.get $firstAt) (i32.shl (local.get $doc) (i32.const 2))) (local.get $i))
        (i32.store (i32.add (local.get $docs) (i32.shl (local.get $length) (i32.const 2))) (local.get $doc))
        (local.set $length (i32.add (local.get $length) (i32.const 1)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.set $i (i32.const 0))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $moreLength)))
        (local.set $doc (i32.load (i32.add (local.get $moreDocs) (i32.shl (local.get $i) (i32.const 2)))))
        (if (i32.eq (i32.load (i32.add (local.get $firstAt) (i32.shl (local.get $doc) (i32.const 2)))) (i32.const -1))
          (then
            (i32.store (i32.add (local.get $docs) (i32.shl (local.get $length) (i32.const 2))) (local.get $doc))
            (local.set $length (i32.add (local.get $length) (i32.const 1)))))
        (i32.store (i32.add (local.get $moreAt) (i32.shl (local.get $doc) (i32.const 2))) (local.get $i))
        (local.set $at (i32.add (local.get $score) (i32.shl (local.get $doc) (i32.const 3))))
        (f64.store (local.get $at)
          (f64.add (f64.load (local.get $at)) (f64.load (i32.add (local.get $moreRaw) (i32.shl (local.get $i) (i32.const 3))))))
        (local.set $at (i32.add (local.get $count) (i32.shl (local.get $doc) (i32.const 2))))
        (i32.store (local.get $at)
          (i32.add (i32.load (local.get $at)) (i32.load (i32.add (local.get $moreCounts) (i32.shl (local.get $i) (i32.const 2))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.set $i (i32.const 0))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $length)))
        (local.set $doc (i32.load (i32.add (local.get $docs) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $c (i32.load (i32.add (local.get $count) (i32.shl (local.get $doc) (i32.const 2)))))
        (f64.store (i32.add (local.get $final) (i32.shl (local.get $i) (i32.const 3)))
          (f64.mul
            (f64.load (i32.add (local.get $score) (i32.shl (local.get $doc) (i32.const 3))))
            (f64.convert_i32_s (select (local.get $c) (i32.const 1) (i32.gt_s (local.get $c) (i32.const 1))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.get $length))

  ;; Compressed adjacency of `m` edges packed four u32 each at `packed`, by the node in word
  ;; `column` (0 or 1) of each (below `n`): `start` (i32, n + 1) where each node's edges begin
  ;; in `order` (i32, m), which lists edge numbers, in packed order per node. `fill` (i32, n):
  ;; scratch. A counting sort, as graph-cache.ts's AdjacencyView did it in JavaScript.
  (func (export "adjacency")
    (param $packed i32) (param $m i32) (param $column i32) (param $n i32)
    (param $start i32) (param $order i32) (param $fill i32)
    (local $i i32) (local $v i32) (local $at i32) (local $sum i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $m)))
        (local.set $v (i32.load (i32.add (local.get $packed) (i32.shl (i32.add (i32.shl (local.get $i) (i32.const 2)) (local.get $column)) (i32.const 2)))))
        (local.set $at (i32.add (local.get $start) (i32.shl (i32.add (local.get $v) (i32.const 1)) (i32.const 2))))
        (i32.store (local.get $at) (i32.add (i32.load (local.get $at)) (i32.const 1)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.set $v (i32.const 0))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $v) (local.get $n)))
        (i32.store (i32.add (local.get $fill) (i32.shl (local.get $v) (i32.const 2))) (local.get $sum))
        (local.set $at (i32.add (local.get $start) (i32.shl (i32.add (local.get $v) (i32.const 1)) (i32.const 2))))
        (local.set $sum (i32.add (local.get $sum) (i32.load (local.get $at))))
        (i32.store (local.get $at) (local.get $sum))
        (local.set $v (i32.add (local.get $v) (i32.const 1)))
        (br $next)))
    (local.set $i (i32.const 0))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $m)))
        (local.set $v (i32.load (i32.add (local.get $packed) (i32.shl (i32.add (i32.shl (local.get $i) (i32.const 2)) (local.get $column)) (i32.const 2)))))
        (local.set $at (i32.add (local.get $fill) (i32.shl (local.get $v) (i32.const 2))))
        (i32.store (i32.add (local.get $order) (i32.shl (i32.load (local.get $at)) (i32.const 2))) (local.get $i))
        (i32.store (local.get $at) (i32.add (i32.load (local.get $at)) (i32.const 1)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next))))

  ;; The `size`-th largest of the `length` f64 at `values` (counting repeats), kept in `best`
  ;; (f64, `size`, descending): what a ranking's first `size` places cannot be below.
  ;; -Infinity when there are fewer; NaN when one of them is NaN.
  (func (export "nthLargest") (param $values i32) (param $length i32) (param $size i32) (param $best i32) (result f64)
    (local $i i32) (local $used i32) (local $v f64) (local $at i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $length)))
        (local.set $v (f64.load (i32.add (local.get $values) (i32.shl (local.get $i) (i32.const 3)))))
        (block $skip
          ;; Full and not above the smallest kept: the common case, one comparison.
          (if (i32.eq (local.get $used) (local.get $size))
            (then (br_if $skip (i32.eqz (f64.gt (local.get $v)
              (f64.load (i32.add (local.get $best) (i32.shl (i32.sub (local.get $size) (i32.const 1)) (i32.const 3)))))))))
          ;; NaN compares as a tie with everything: the caller ranks without this.
          (if (f64.ne (local.get $v) (local.get $v)) (then (return (f64.const nan))))
          (if (i32.lt_u (local.get $used) (local.get $size))
            (then
              (local.set $at (local.get $used))
              (local.set $used (i32.add (local.get $used) (i32.const 1))))
            (else (local.set $at (i32.sub (local.get $size) (i32.const 1)))))
          ;; Insertion into the descending buffer.
          (block $placed
            (loop $shift
              (br_if $placed (i32.eqz (local.get $at)))
              (br_if $placed (i32.eqz (f64.gt (local.get $v)
                (f64.load (i32.add (local.get $best) (i32.shl (i32.sub (local.get $at) (i32.const 1)) (i32.const 3)))))))
              (f64.store (i32.add (local.get $best) (i32.shl (local.get $at) (i32.const 3)))
                (f64.load (i32.add (local.get $best) (i32.shl (i32.sub (local.get $at) (i32.const 1)) (i32.const 3)))))
              (local.set $at (i32.sub (local.get $at) (i32.const 1)))
              (br $shift)))
          (f64.store (i32.add (local.get $best) (i32.shl (local.get $at) (i32.const 3))) (local.get $v)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (if (result f64) (i32.lt_u (local.get $used) (local.get $size))
      (then (f64.const -inf))
      (else (f64.load (i32.add (local.get $best) (i32.shl (i32.sub (local.get $size) (i32.const 1)) (i32.const 3)))))))

  ;; The positions (ascending, into `out`, i32) of the `length` f64 at `values` that are at
  ;; least `floor`; returns how many.
  (func (export "atLeast") (param $values i32) (param $length i32) (param $floor f64) (param $out i32) (result i32)
    (local $i i32) (local $count i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $length)))
        (if (f64.ge (f64.load (i32.add (local.get $values) (i32.shl (local.get $i) (i32.const 3)))) (local.get $floor))
          (then
            (i32.store (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2))) (local.get $i))
            (local.set $count (i32.add (local.get $count) (i32.const 1)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.get $count))
)
