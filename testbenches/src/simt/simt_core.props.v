// Properties of the SIMT core (`hdl/simt/simt_core.rs`, docs/core.md §8): its issue and
// stack contracts, proved for all inputs on the exported Verilog of `simt_core_2x2` by
// `weft prove`. WEFT_UUT becomes the preset's module. The harness is written for 2
// warps of 2 lanes with 4-entry stacks (it reads those registers through `hierconn`
// wires; `Tested::properties` gives it to that size only).
//
// Every input is free: the program (any words and reconvergence PCs, written at any
// time, also while the core runs), the memory port's readiness and answers, start and
// reset. Assumed: the launch inputs the core reads while it runs are held (`cta_size`,
// `cta_warps`), a CTA has at least one thread and `cta_warps` is the warps its threads
// need (`ceil(cta_size / 2)`, at most 2), as the loader sets them.
//
// The contracts: an instruction issues for a running warp, at the top of that warp's
// stack, with active threads that the warp's launch started (none lost to an empty
// mask, none made up); a launch starts each warp with exactly its CTA threads; every
// stack entry holds launched threads only, and on 2 lanes the stacks never overflow.
// The invariants the inductions stand on are properties of their own (`p_inv_*`).
module weft_prove #(parameter WARPS = 2, parameter LANES = 2, parameter STACK_ENTRIES = 4,
                    parameter CODE_WORDS = 256) (
    input clock,
    input reset,
    input prog_write,
    input [$clog2(CODE_WORDS)-1:0] prog_addr,
    input [31:0] prog_inst,
    input [31:0] prog_rpc,
    input start,
    input [31:0] code_base,
    input [31:0] entry_pc,
    input [31:0] gp,
    input [31:0] ntid,
    input [31:0] cta_size,
    input [31:0] ctas,
    input [7:0] cta_warps,
    input mem_req_ready,
    input mem_resp_valid,
    input [32*LANES-1:0] mem_resp_data
);
    localparam [3:0] LAUNCH = 4'd2, LAUNCH_REGS = 4'd3, DECODE = 4'd4, MD_WAIT = 4'd9;
    localparam [1:0] FREE = 2'd0, RUN = 2'd1;
    localparam [31:0] EXIT_PC = 32'hffff_fff0;
    wire mem_req_valid, mem_req_write, done, error, issue, issue_warp;
    wire [31:0] mem_req_addr, issue_pc;
    wire [32*LANES-1:0] mem_req_data;
    wire [4*LANES-1:0] mem_req_strobe;
    wire [1:0] issue_mask;
    wire [3:0] phase;
    WEFT_UUT uut (
        .clock(clock), .reset(reset), .prog_write(prog_write), .prog_addr(prog_addr),
        .prog_inst(prog_inst), .prog_rpc(prog_rpc), .start(start), .code_base(code_base),
        .entry_pc(entry_pc), .gp(gp), .ntid(ntid), .cta_size(cta_size), .ctas(ctas),
        .cta_warps(cta_warps), .mem_req_valid(mem_req_valid), .mem_req_ready(mem_req_ready),
        .mem_req_addr(mem_req_addr), .mem_req_write(mem_req_write),
        .mem_req_data(mem_req_data), .mem_req_strobe(mem_req_strobe),
        .mem_resp_valid(mem_resp_valid), .mem_resp_data(mem_resp_data), .done(done),
        .error(error), .issue(issue), .issue_warp(issue_warp), .issue_pc(issue_pc),
        .issue_mask(issue_mask), .phase(phase)
    );

    // The core's registers ...
    (* hierconn *) wire [3:0] \uut.state$q ;
    (* hierconn *) wire [1:0] \uut.warp_state$0$q , \uut.warp_state$1$q ;
    (* hierconn *) wire \uut.cur_warp$q ;
    (* hierconn *) wire [31:0] \uut.cur_pc$q ;
    (* hierconn *) wire [1:0] \uut.cur_mask$q ;
    (* hierconn *) wire [7:0] \uut.launch_k$q ;
    (* hierconn *) wire [31:0] \uut.launch_base$q ;
    // ... the policy's inputs for a warp's start and its outputs ...
    (* hierconn *) wire \uut.policy$init , \uut.policy$init_warp ;
    (* hierconn *) wire [1:0] \uut.policy$init_mask ;
    (* hierconn *) wire [31:0] \uut.policy$pc$0 , \uut.policy$pc$1 ;
    (* hierconn *) wire [1:0] \uut.policy$mask$0 , \uut.policy$mask$1 ;
    // ... and each warp's stack: entry count, entry masks, overflow.
    (* hierconn *) wire [2:0] \uut.policy.stack$0.count$q , \uut.policy.stack$1.count$q ;
    (* hierconn *) wire [1:0] \uut.policy.stack$0.entry_mask$0$q , \uut.policy.stack$0.entry_mask$1$q ;
    (* hierconn *) wire [1:0] \uut.policy.stack$0.entry_mask$2$q , \uut.policy.stack$0.entry_mask$3$q ;
    (* hierconn *) wire [1:0] \uut.policy.stack$1.entry_mask$0$q , \uut.policy.stack$1.entry_mask$1$q ;
    (* hierconn *) wire [1:0] \uut.policy.stack$1.entry_mask$2$q , \uut.policy.stack$1.entry_mask$3$q ;
    (* hierconn *) wire \uut.policy.stack$0.overflowed$q , \uut.policy.stack$1.overflowed$q ;
    wire [3:0] state = \uut.state$q ;
    wire [1:0] ws [0:1];
    assign ws[0] = \uut.warp_state$0$q ;
    assign ws[1] = \uut.warp_state$1$q ;
    wire [31:0] top_pc [0:1];
    assign top_pc[0] = \uut.policy$pc$0 ;
    assign top_pc[1] = \uut.policy$pc$1 ;
    wire [1:0] top_mask [0:1];
    assign top_mask[0] = \uut.policy$mask$0 ;
    assign top_mask[1] = \uut.policy$mask$1 ;
    wire [2:0] count [0:1];
    assign count[0] = \uut.policy.stack$0.count$q ;
    assign count[1] = \uut.policy.stack$1.count$q ;
    wire [7:0] em [0:1];  // entry e of warp w at em[w][2e +: 2]
    assign em[0] = {\uut.policy.stack$0.entry_mask$3$q , \uut.policy.stack$0.entry_mask$2$q ,
                    \uut.policy.stack$0.entry_mask$1$q , \uut.policy.stack$0.entry_mask$0$q };
    assign em[1] = {\uut.policy.stack$1.entry_mask$3$q , \uut.policy.stack$1.entry_mask$2$q ,
                    \uut.policy.stack$1.entry_mask$1$q , \uut.policy.stack$1.entry_mask$0$q };
    wire cw = \uut.cur_warp$q ;
    // A warp instruction is in flight from its issue (decode) until it moves its warp on.
    wire in_flight = state >= DECODE && state <= MD_WAIT;

    reg init = 1'b1;
    always @(*) if (init) assume(reset);
    // The launch as the loader sets it, held.
    reg [31:0] r_cta_size = 0;
    reg [7:0] r_cta_warps = 0;
    always @(*) begin
        assume(cta_size != 0 && cta_warps != 0 && cta_warps <= WARPS);
        assume({cta_warps - 8'd1, 1'b0} < {1'b0, cta_size} && {1'b0, cta_size} <= {cta_warps, 1'b0});
        if (!init) assume(cta_size == r_cta_size && cta_warps == r_cta_warps);
    end

    // Ghost: the threads each warp's last start gave it.
    reg [1:0] launched0 = 0, launched1 = 0;
    wire [1:0] launched [0:1];
    assign launched[0] = launched0;
    assign launched[1] = launched1;
    always @(posedge clock) begin
        init <= 1'b0;
        r_cta_size <= cta_size;
        r_cta_warps <= cta_warps;
        if (\uut.policy$init && !\uut.policy$init_warp ) launched0 <= \uut.policy$init_mask ;
        if (\uut.policy$init && \uut.policy$init_warp ) launched1 <= \uut.policy$init_mask ;
    end

    // Every entry of warp w's stack holds threads of its launch, at least one.
    function entries_launched(input [2:0] n, input [7:0] m, input [1:0] own);
        integer e;
        begin
            entries_launched = 1'b1;
            for (e = 0; e < STACK_ENTRIES; e = e + 1)
                if (e < n && (m[2 * e +: 2] == 2'b0 || (m[2 * e +: 2] & ~own) != 2'b0))
                    entries_launched = 1'b0;
        end
    endfunction
    // On 2 lanes a divergent branch splits the base's two threads into two one-thread
    // paths: at most 3 entries, those above the base with one thread.
    function two_lane_nesting(input [2:0] n, input [7:0] m);
        integer e;
        begin
            two_lane_nesting = n <= 3;
            for (e = 1; e < STACK_ENTRIES; e = e + 1)
                if (e < n && m[2 * e +: 2] == 2'b11) two_lane_nesting = 1'b0;
        end
    endfunction
    // The lanes of the CTA's warp launched now: lane l when launch_base + l < cta_size.
    wire [1:0] cta_lanes = {\uut.launch_base$q + 32'd1 < cta_size, \uut.launch_base$q < cta_size};

    always @(*) if (!init) begin
        // While a CTA launches, warp k of it covers threads 2k and 2k + 1 of the CTA,
        // and k is one of the CTA's warps.
        p_inv_launch: assert(!(state == LAUNCH || state == LAUNCH_REGS)
            || (\uut.launch_base$q == {23'b0, \uut.launch_k$q , 1'b0}
                && \uut.launch_k$q < cta_warps));
        // A warp that runs or waits at a barrier has a stack, of at most STACK_ENTRIES
        // entries, and every entry holds threads its warp was launched with, at least one.
        p_inv_stack_threads: assert(
            (ws[0] == FREE || count[0] != 0) && (ws[1] == FREE || count[1] != 0)
            && count[0] <= STACK_ENTRIES && count[1] <= STACK_ENTRIES
            && entries_launched(count[0], em[0], launched[0])
            && entries_launched(count[1], em[1], launched[1]));
        // A warp starts (the policy's init) only during a launch, with exactly the lanes
        // of its CTA threads, at least one.
        p_launch_mask: assert(!\uut.policy$init || (state == LAUNCH
            && \uut.policy$init_mask == cta_lanes && \uut.policy$init_mask != 2'b0));
        // An instruction in flight belongs to a running warp that has not returned, at
        // its stack's top (PC and active threads).
        p_inv_in_flight: assert(!in_flight || (ws[cw] == RUN && count[cw] != 0
            && \uut.cur_pc$q == top_pc[cw] && \uut.cur_pc$q != EXIT_PC
            && \uut.cur_mask$q == top_mask[cw]));
        // The issue shows each instruction in flight once, at its start (decode): its
        // warp, PC and active threads, at least one, launched threads only.
        p_issue: assert(issue == (state == DECODE)
            && (!issue || (issue_warp == cw && issue_pc == \uut.cur_pc$q
                && issue_mask == \uut.cur_mask$q && issue_mask != 2'b0
                && (issue_mask & ~launched[cw]) == 2'b0)));
        // On 2 lanes no stack overflows: at most 3 entries, one thread above the base.
        p_two_lanes_never_overflow: assert(two_lane_nesting(count[0], em[0])
            && two_lane_nesting(count[1], em[1])
            && !\uut.policy.stack$0.overflowed$q && !\uut.policy.stack$1.overflowed$q );
    end
endmodule
