// Properties of the CAPT (SPEC §3.3), proved for all inputs on the exported Verilog by
// `weft prove`: WEFT_UUT becomes the preset's module, ENTRIES (at most 8) and HISTORY
// its parameters. The contract is about the table's entries, so the harness reads the
// block's registers (valid, tag, history, age of each entry) through `hierconn` wires,
// which Yosys's `flatten` joins to the instance's wires of the same hierarchical name.
// Ghost registers follow the contract: the recency order of the entries (`older`,
// set by every insert or update that hits or allocates) and the table the contract
// expects after each edge.
module weft_prove #(parameter ENTRIES = 8, parameter HISTORY = 0) (
    input clock,
    input reset,
    input [31:0] lookup_pc,
    input [1:0] op,
    input [31:0] op_pc,
    input op_adequate
);
    localparam E = ENTRIES;
    localparam HW = HISTORY == 2 ? 2 : 1;
    localparam AW = E > 1 ? $clog2(E) : 1;
    localparam [HW-1:0] HINIT = HISTORY == 2 ? 2 : 1;
    wire hit, predict_adequate;
    WEFT_UUT uut (
        .clock(clock), .reset(reset), .lookup_pc(lookup_pc), .hit(hit),
        .predict_adequate(predict_adequate), .op(op), .op_pc(op_pc),
        .op_adequate(op_adequate)
    );

    // The block's registers (entries 0..7; those past ENTRIES are unused).
    (* hierconn *) wire \uut.valid$0$q , \uut.valid$1$q , \uut.valid$2$q , \uut.valid$3$q ;
    (* hierconn *) wire \uut.valid$4$q , \uut.valid$5$q , \uut.valid$6$q , \uut.valid$7$q ;
    (* hierconn *) wire [31:0] \uut.tag$0$q , \uut.tag$1$q , \uut.tag$2$q , \uut.tag$3$q ;
    (* hierconn *) wire [31:0] \uut.tag$4$q , \uut.tag$5$q , \uut.tag$6$q , \uut.tag$7$q ;
    (* hierconn *) wire [HW-1:0] \uut.history$0$q , \uut.history$1$q , \uut.history$2$q ;
    (* hierconn *) wire [HW-1:0] \uut.history$3$q , \uut.history$4$q , \uut.history$5$q ;
    (* hierconn *) wire [HW-1:0] \uut.history$6$q , \uut.history$7$q ;
    (* hierconn *) wire [AW-1:0] \uut.age$0$q , \uut.age$1$q , \uut.age$2$q , \uut.age$3$q ;
    (* hierconn *) wire [AW-1:0] \uut.age$4$q , \uut.age$5$q , \uut.age$6$q , \uut.age$7$q ;
    wire [7:0] v8 = {\uut.valid$7$q , \uut.valid$6$q , \uut.valid$5$q , \uut.valid$4$q ,
                     \uut.valid$3$q , \uut.valid$2$q , \uut.valid$1$q , \uut.valid$0$q };
    wire [8*32-1:0] t8 = {\uut.tag$7$q , \uut.tag$6$q , \uut.tag$5$q , \uut.tag$4$q ,
                          \uut.tag$3$q , \uut.tag$2$q , \uut.tag$1$q , \uut.tag$0$q };
    wire [8*HW-1:0] h8 = {\uut.history$7$q , \uut.history$6$q , \uut.history$5$q ,
                          \uut.history$4$q , \uut.history$3$q , \uut.history$2$q ,
                          \uut.history$1$q , \uut.history$0$q };
    wire [8*AW-1:0] a8 = {\uut.age$7$q , \uut.age$6$q , \uut.age$5$q , \uut.age$4$q ,
                          \uut.age$3$q , \uut.age$2$q , \uut.age$1$q , \uut.age$0$q };
    wire [E-1:0] v = v8[E-1:0];
    wire [E*32-1:0] t = t8[E*32-1:0];
    wire [E*HW-1:0] h = h8[E*HW-1:0];
    wire [E*AW-1:0] a = a8[E*AW-1:0];

    reg init = 1'b1;
    always @(*) if (init) assume(reset);

    // The contract's recency: older[i*E+j] = entry i was touched before entry j (for
    // valid entries i != j).
    reg [E*E-1:0] older = 0;
    // The table the contract expects after the last edge, and what that edge did.
    reg [E-1:0] exp_v = 0;
    reg [E*32-1:0] exp_t = 0;
    reg [E*HW-1:0] exp_h = 0;
    reg was_reset = 1'b0, was_fill_free = 1'b0, was_fill_lru = 1'b0, was_update = 1'b0;
    reg was_idle = 1'b0;

    // This cycle: the lookup's hit and prediction, the entry holding op_pc, the
    // lowest invalid entry, the least recently used one, and the recency invariant.
    reg look_hit, look_predict, unique, any_match, any_free, recency_ok;
    reg [E-1:0] match, free, lru;
    reg [7:0] nvalid;
    integer i, j;
    always @(*) begin
        look_hit = 1'b0;
        look_predict = 1'b0;
        unique = 1'b1;
        match = 0;
        free = 0;
        any_free = 1'b0;
        lru = 0;
        recency_ok = 1'b1;
        nvalid = 0;
        for (i = 0; i < E; i = i + 1) begin
            if (v[i] && t[i*32 +: 32] == lookup_pc) begin
                look_hit = 1'b1;
                if (h[i*HW + HW - 1]) look_predict = 1'b1;
            end
            if (v[i] && t[i*32 +: 32] == op_pc) match[i] = 1'b1;
            if (!v[i] && !any_free) begin
                free[i] = 1'b1;
                any_free = 1'b1;
            end
            lru[i] = v[i];
            nvalid = nvalid + v[i];
            for (j = 0; j < E; j = j + 1)
                if (j != i && v[j]) begin
                    if (v[i] && t[i*32 +: 32] == t[j*32 +: 32]) unique = 1'b0;
                    if (!older[i*E + j]) lru[i] = 1'b0;
                    if (v[i] && (older[i*E + j] != (a[i*AW +: AW] > a[j*AW +: AW])
                                 || a[i*AW +: AW] == a[j*AW +: AW]))
                        recency_ok = 1'b0;
                end
        end
        for (i = 0; i < E; i = i + 1)
            if (v[i] && a[i*AW +: AW] >= nvalid) recency_ok = 1'b0;
        any_match = match != 0;
    end

    // The edge's effect as the contract states it: an insert that misses fills the
    // lowest invalid entry, else the least recently used one (history = adequate); an
    // update of a held branch sets its history by the HISTORY rule; both make the
    // entry most recently used; anything else changes no entry.
    wire is_insert = op == 2'd1, is_update = op == 2'd2;
    wire fill = is_insert && !any_match;
    wire [E-1:0] filled = any_free ? free : lru;
    wire [E-1:0] touched = fill ? filled : (is_insert || is_update) ? match : 0;
    reg [E-1:0] nv;
    reg [E*32-1:0] nt;
    reg [E*HW-1:0] nh;
    reg [HW-1:0] old_h;
    integer k;
    always @(*) begin
        nv = v;
        nt = t;
        nh = h;
        for (k = 0; k < E; k = k + 1) begin
            old_h = h[k*HW +: HW];
            if (fill && filled[k]) begin
                nv[k] = 1'b1;
                nt[k*32 +: 32] = op_pc;
                nh[k*HW +: HW] = HINIT;
            end
            if (is_update && match[k])
                nh[k*HW +: HW] =
                    HISTORY == 0 ? op_adequate
                    : HISTORY == 1 ? (old_h | op_adequate)
                    : op_adequate ? (old_h == 3 ? old_h : old_h + 1)
                    : (old_h == 0 ? old_h : old_h - 1);
        end
    end

    integer m, n;
    always @(posedge clock) begin
        init <= 1'b0;
        was_reset <= reset;
        was_fill_free <= !reset && fill && any_free;
        was_fill_lru <= !reset && fill && !any_free;
        was_update <= !reset && is_update;
        was_idle <= !reset && !is_update && !fill;
        exp_v <= reset ? 0 : nv;
        exp_t <= nt;
        exp_h <= nh;
        if (reset)
            older <= 0;
        else
            for (m = 0; m < E; m = m + 1)
                if (touched[m])
                    for (n = 0; n < E; n = n + 1)
                        if (n != m) begin
                            older[m*E + n] <= 1'b0;
                            older[n*E + m] <= 1'b1;
                        end
    end

    // The table is the expected one: the same valid entries, and each valid entry's
    // tag and history.
    reg as_expected;
    integer q;
    always @(*) begin
        as_expected = v == exp_v;
        for (q = 0; q < E; q = q + 1)
            if (exp_v[q] && (t[q*32 +: 32] != exp_t[q*32 +: 32]
                             || h[q*HW +: HW] != exp_h[q*HW +: HW]))
                as_expected = 1'b0;
    end

    // The invariant (`p_inv_tags_and_ages`): unique tags, and the entries' ages are the
    // contract's recency. It held in every checked cycle up to this one (the reset cycle
    // is not checked): the properties that need it in their induction are stated for
    // such traces. `p_inv_tags_and_ages` proves that is every trace, the invariant
    // strengthens their induction as much as if it were asserted with them, and a bug
    // that breaks only the invariant fails `p_inv_tags_and_ages`, not them (so each
    // one's planted bug shows its own clause can fail).
    wire inv = unique && recency_ok;
    reg inv_before = 1'b1;
    always @(posedge clock) inv_before <= init || (inv_before && inv);
    wire inv_so_far = inv_before && inv;

    always @(*) if (!init) begin
        // No two valid entries share a tag; the entries' ages are the contract's recency
        // (an insert or update that hits or allocates makes the entry most recent): the
        // valid entries' ages are distinct, below their number, and the older entry has
        // the larger age. Yosys's SAT closes the induction at length 1 in about 30 s
        // with both, and takes 1 to 10 minutes on uniqueness alone.
        p_inv_tags_and_ages: assert(inv);
        // A lookup hits exactly when a valid entry holds its PC, and then reports that
        // entry's history (the tags are unique, so one entry holds it; a miss predicts
        // nothing).
        p_hit_reports_history: assert(hit == look_hit && predict_adequate == look_predict);
        // An insert that misses fills the lowest invalid entry ...
        p_insert_fills_lowest_invalid: assert(!was_fill_free || as_expected);
        // ... else the least recently used one (the induction needs the invariant).
        p_insert_else_lru: assert(!inv_so_far || !was_fill_lru || as_expected);
        // An update sets the held branch's history by the HISTORY rule; absent, it is
        // ignored (with the invariant: an update touches one entry).
        p_update_sets_history: assert(!inv_so_far || !was_update || as_expected);
        // No op, and an insert that hits, changes no entry (with the invariant: an
        // insert that hits touches one entry).
        p_idle_keeps_entries: assert(!inv_so_far || !was_idle || as_expected);
        // Reset invalidates every entry.
        p_reset_invalidates: assert(!was_reset || v == 0);
    end
endmodule
