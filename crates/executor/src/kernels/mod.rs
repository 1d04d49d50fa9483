//! One module per op (like the shape rules). A kernel gets the node, its
//! inputs and the output shapes inference computed ([`OutSpec`]); only the
//! data-dependent kernels (Compress, Extract, and Reshape whose target comes
//! from run-time data) decide a size themselves, which the executor then
//! checks against the inferred symbol's range.

use std::sync::atomic::{AtomicBool, Ordering};

use half::{bf16, f16};
use ir::{ElementType, Node};

use crate::error::{ExecError, KernelError};
use crate::tensor::{element_width, Element, Tensor};

mod activation;
mod adaptive_pool;
mod assign;
mod avg_pool;
mod batch_norm_inference;
mod batch_to_space;
mod binary_convolution;
pub(crate) mod bodies;
mod broadcast_op;
mod bucketize;
mod col2im;
mod compress;
mod concat;
mod constant;
mod conv_few_channels;
pub(crate) mod convert;
mod convert_color;
mod convert_color_to_nv12;
mod convert_promote_types;
pub(crate) mod convolution;
mod convolution_backprop_data;
mod ctc_greedy_decoder;
mod ctc_greedy_decoder_seq_len;
mod ctc_loss;
mod cum_sum;
mod deformable_convolution;
mod deformable_psroi_pooling;
mod depth_to_space;
mod depthwise;
mod detection_output;
pub(crate) mod dft;
mod einsum;
mod elementwise_binary;
mod elementwise_unary;
mod embedding_bag_offsets;
mod embedding_bag_packed;
mod embedding_segments_sum;
mod erf_inv;
mod experimental_detectron_detection_output;
mod experimental_detectron_generate_proposals;
mod experimental_detectron_prior_grid_generator;
mod experimental_detectron_roi_feature_extractor;
mod experimental_detectron_topk_rois;
mod extract;
mod extract_image_patches;
mod eye;
mod fake_convert;
mod fake_quantize;
mod gather;
mod gather_elements;
mod gather_nd;
mod gather_tree;
mod generate_proposals;
mod grid_sample;
mod grn;
mod group_normalization;
mod grouped_mat_mul;
mod if_op;
mod interpolate;
mod inverse;
mod irdft;
mod istft;
mod log_softmax;
mod loop_op;
mod lrn;
mod matmul;
mod matrix_nms;
mod max_pool;
mod multiclass_nms;
mod multinomial;
mod mvn;
mod nms_common;
mod nms_rotated;
mod non_max_suppression;
mod non_zero;
mod normalize_l2;
mod one_hot;
pub(crate) mod pad;
mod prior_box;
mod prior_box_clustered;
mod proposal;
mod proposal_nms;
mod psroi_pooling;
pub(crate) mod random_uniform;
mod range;
mod rdft;
mod read_value;
mod reduce;
mod region_yolo;
mod reorg_yolo;
mod reshape;
mod result;
mod reverse;
mod reverse_sequence;
mod rnn;
mod roi_align;
mod roi_align_rotated;
pub(crate) mod roi_pooling;
mod roll;
pub(crate) mod scaled_dot_product_attention;
mod scatter;
mod search_sorted;
mod segment_max;
mod select;
mod shape_of;
mod slice;
mod slice_scatter;
mod softmax;
mod space_to_batch;
mod sparse_fill_empty_rows;
mod split;
mod squeeze;
mod stft;
mod storage;
mod strided_slice;
mod string_tensor_pack;
mod string_tensor_unpack;
mod tensor_iterator;
mod tile;
mod topk;
mod transpose;
mod unique;
pub(crate) mod winograd;

pub(crate) type KResult<T> = Result<T, KernelError>;

/// What inference says of one output.
#[derive(Debug, Clone)]
pub(crate) struct OutSpec {
    pub element_type: ElementType,
    /// `None` when a dim depends on data computed at run time.
    pub shape: Option<Vec<usize>>,
    /// Whether any layer reads this output (a kernel may leave the values
    /// of an unread one unset: MaxPool's indices behind a PyTorch export).
    pub used: bool,
}

/// One kernel invocation.
pub(crate) struct Call<'a> {
    pub node: &'a Node,
    pub inputs: &'a [Tensor],
    pub outputs: &'a [OutSpec],
}

impl Call<'_> {
    pub fn input(&self, i: usize) -> KResult<&Tensor> {
        self.inputs
            .get(i)
            .ok_or_else(|| KernelError::from(format!("input {i} is missing")))
    }

    /// The one value of input `i` (a scalar or a one-element tensor) as
    /// `f64`; `what` names the input in the error.
    pub fn input_f64(&self, i: usize, what: &str) -> KResult<f64> {
        match to_f64s(self.input(i)?)?.as_slice() {
            [v] => Ok(*v),
            _ => Err(format!("{what} (input {i}) must hold one value").into()),
        }
    }

    /// The one value of integer input `i` as `i64`; `what` names the input
    /// in the error.
    pub fn input_i64(&self, i: usize, what: &str) -> KResult<i64> {
        match self.input(i)?.to_i64s()?.as_slice() {
            [v] => Ok(*v),
            _ => Err(format!("{what} (input {i}) must hold one value").into()),
        }
    }

    /// Input `i`'s values as `f32`, for the kernels that compute in `f32`
    /// as OpenVINO's CPU plugin does (the detection ops).
    pub fn input_f32s(&self, i: usize) -> KResult<Vec<f32>> {
        Ok(to_f64s(self.input(i)?)?
            .into_iter()
            .map(|v| v as f32)
            .collect())
    }

    /// The inferred shape of output `i`; an error when it is data-dependent.
    pub fn out_shape(&self, i: usize) -> KResult<Vec<usize>> {
        self.outputs
            .get(i)
            .and_then(|o| o.shape.clone())
            .ok_or_else(|| KernelError::from(format!("the shape of output {i} is not known")))
    }

    pub fn out_type(&self, i: usize) -> KResult<ElementType> {
        self.outputs
            .get(i)
            .map(|o| o.element_type)
            .ok_or_else(|| KernelError::from(format!("output {i} is missing")))
    }

    /// A boolean attribute; an invalid value reads as false (as OpenVINO,
    /// and as inference, which warns).
    pub fn attr_bool(&self, key: &str, default: bool) -> bool {
        self.node
            .attributes
            .bool(key)
            .is_ok_and(|v| v.unwrap_or(default))
    }

    /// A floating-point attribute.
    pub fn attr_f64(&self, key: &str) -> KResult<Option<f64>> {
        match self.node.attributes.get(key).map(str::trim) {
            None => Ok(None),
            Some(text) => text
                .parse::<f64>()
                .map(Some)
                .map_err(|_| format!("`{key}` \"{text}\" is not a number").into()),
        }
    }

    pub fn attr_i64(&self, key: &str) -> KResult<Option<i64>> {
        self.node
            .attributes
            .i64(key)
            .map_err(|e| KernelError::from(e.to_string()))
    }
}

pub(crate) type KernelFn = fn(&Call<'_>) -> KResult<Vec<Tensor>>;

/// The kernel of an op type (as the registry names it), if there is one.
pub(crate) fn kernel(type_name: &str) -> Option<KernelFn> {
    use elementwise_binary as b;
    use elementwise_unary as u;
    // The ops that move elements, storage types included.
    if let Some(k) = storage::kernel(ir::ir_type_name(type_name)) {
        return Some(k);
    }
    Some(match ir::ir_type_name(type_name) {
        "Const" => constant::run,
        "Result" => result::run,
        "Select" => select::run,
        "Reshape" => reshape::run,
        "Slice" => slice::run,
        "SliceScatter" => slice_scatter::run,
        "Compress" => compress::run,
        "Extract" => extract::run,
        "ExtractImagePatches" => extract_image_patches::run,
        "Add" => b::add,
        "Subtract" => b::subtract,
        "Multiply" => b::multiply,
        "Divide" => b::divide,
        "Maximum" => b::maximum,
        "Minimum" => b::minimum,
        "Equal" => b::equal,
        "NotEqual" => b::not_equal,
        "Less" => b::less,
        "LessEqual" => b::less_equal,
        "Greater" => b::greater,
        "GreaterEqual" => b::greater_equal,
        "LogicalAnd" => b::logical_and,
        "LogicalOr" => b::logical_or,
        "LogicalXor" | "Xor" => b::logical_xor,
        "FloorMod" => b::floor_mod,
        "Mod" => b::modulo,
        "Power" => b::power,
        "SquaredDifference" => b::squared_difference,
        "BitwiseAnd" => b::bitwise_and,
        "BitwiseOr" => b::bitwise_or,
        "BitwiseXor" => b::bitwise_xor,
        "BitwiseLeftShift" => b::bitwise_left_shift,
        "BitwiseRightShift" => b::bitwise_right_shift,
        "BitwiseNot" => u::bitwise_not,
        "Log" => u::log,
        "Erf" => u::erf_op,
        "ErfInv" => erf_inv::run,
        "GroupedMatMul" => grouped_mat_mul::run,
        "Floor" => u::floor,
        "Ceiling" => u::ceiling,
        "Round" => u::round,
        "Sign" => u::sign,
        "Sin" => u::sin,
        "Cos" => u::cos,
        "Tan" => u::tan,
        "Asin" => u::asin,
        "Acos" => u::acos,
        "Atan" => u::atan,
        "Sinh" => u::sinh,
        "Cosh" => u::cosh,
        "Asinh" => u::asinh,
        "Acosh" => u::acosh,
        "Atanh" => u::atanh,
        "Clamp" => activation::clamp,
        "Gelu" => activation::gelu,
        "HSwish" => activation::hswish,
        "HSigmoid" => activation::hsigmoid,
        "HardSigmoid" => activation::hard_sigmoid,
        "Swish" => activation::swish,
        "Mish" => activation::mish,
        "SoftPlus" => activation::softplus,
        "Elu" => activation::elu,
        "PReLU" => activation::prelu,
        "Selu" => activation::selu,
        "SoftSign" => activation::softsign,
        "IsNaN" => u::is_nan,
        "IsInf" => u::is_inf,
        "IsFinite" => u::is_finite,
        "ConvertLike" => convert::like,
        "ConvertPromoteTypes" => convert_promote_types::run,
        "ReLU" => u::relu,
        "Abs" => u::abs,
        "Negative" => u::negative,
        "Sigmoid" => u::sigmoid,
        "Tanh" => u::tanh,
        "Exp" => u::exp,
        "Sqrt" => u::sqrt,
        "LogicalNot" => u::logical_not,
        "Convert" => convert::run,
        "Concat" => concat::run,
        "Transpose" => transpose::run,
        "TopK" => topk::run,
        "Identity" => result::run,
        "CumSum" => cum_sum::run,
        "CTCGreedyDecoder" => ctc_greedy_decoder::run,
        "CTCGreedyDecoderSeqLen" => ctc_greedy_decoder_seq_len::run,
        "GatherTree" => gather_tree::run,
        "Roll" => roll::run,
        "DFT" => dft::run_dft,
        "IDFT" => dft::run_idft,
        "RDFT" => rdft::run,
        "IRDFT" => irdft::run,
        "STFT" => stft::run,
        "ISTFT" => istft::run,
        "Gather" => gather::run,
        "GatherElements" => gather_elements::run,
        "GatherND" => gather_nd::run,
        "ScatterUpdate" => scatter::scatter_update,
        "ScatterNDUpdate" => scatter::scatter_nd_update,
        "ScatterElementsUpdate" => scatter::scatter_elements_update,
        "ShapeOf" => shape_of::run,
        "Squeeze" => squeeze::run,
        "Unsqueeze" => squeeze::run,
        "MatMul" => matmul::run,
        "Einsum" => einsum::run,
        "EmbeddingBagOffsetsSum" | "EmbeddingBagOffsets" => embedding_bag_offsets::run,
        "EmbeddingBagPackedSum" | "EmbeddingBagPacked" => embedding_bag_packed::run,
        "EmbeddingSegmentsSum" => embedding_segments_sum::run,
        "ScaledDotProductAttention" => scaled_dot_product_attention::run,
        "SoftMax" => softmax::run,
        "LogSoftmax" => log_softmax::run,
        "StridedSlice" => strided_slice::run,
        "SparseFillEmptyRows" => sparse_fill_empty_rows::run,
        "Split" => split::run,
        "VariadicSplit" => split::run,
        "ReduceSum" => reduce::sum,
        "ReduceProd" => reduce::prod,
        "ReduceMax" => reduce::max,
        "ReduceMin" => reduce::min,
        "ReduceMean" => reduce::mean,
        "ReduceL1" => reduce::l1,
        "ReduceL2" => reduce::l2,
        "ReduceLogicalAnd" => reduce::logical_and,
        "ReduceLogicalOr" => reduce::logical_or,
        "Tile" => tile::run,
        "Pad" => pad::run,
        "Range" => range::run,
        "RandomUniform" => random_uniform::run,
        "Multinomial" => multinomial::run,
        "Unique" => unique::run,
        "StringTensorPack" => string_tensor_pack::run,
        "StringTensorUnpack" => string_tensor_unpack::run,
        "ReadValue" => read_value::run,
        "Assign" => assign::run,
        "Eye" => eye::run,
        "Inverse" => inverse::run,
        "OneHot" => one_hot::run,
        "Reverse" => reverse::run,
        "ReverseSequence" => reverse_sequence::run,
        "BatchToSpace" => batch_to_space::run,
        "SpaceToBatch" => space_to_batch::run,
        "Bucketize" => bucketize::run,
        "Col2Im" => col2im::run,
        "SearchSorted" => search_sorted::run,
        "SegmentMax" => segment_max::run,
        "Broadcast" => broadcast_op::run,
        "NonMaxSuppression" => non_max_suppression::run,
        "MatrixNms" => matrix_nms::run,
        "MulticlassNms" => multiclass_nms::run,
        "NMSRotated" => nms_rotated::run,
        "DetectionOutput" => detection_output::run,
        "Proposal" => proposal::run,
        "GenerateProposals" => generate_proposals::run,
        "ExperimentalDetectronDetectionOutput" => experimental_detectron_detection_output::run,
        "ExperimentalDetectronGenerateProposalsSingleImage" => {
            experimental_detectron_generate_proposals::run
        }
        "NonZero" => non_zero::run,
        "MaxPool" => max_pool::run,
        "AvgPool" => avg_pool::run,
        "MVN" => mvn::run,
        "DepthToSpace" => depth_to_space::depth_to_space,
        "SpaceToDepth" => depth_to_space::space_to_depth,
        "ShuffleChannels" => depth_to_space::shuffle_channels,
        "NormalizeL2" => normalize_l2::run,
        "LRN" => lrn::run,
        "GRN" => grn::run,
        "ReorgYolo" => reorg_yolo::run,
        "PriorBox" => prior_box::run,
        "PriorBoxClustered" => prior_box_clustered::run,
        "RegionYolo" => region_yolo::run,
        "ROIPooling" => roi_pooling::run,
        "PSROIPooling" => psroi_pooling::run,
        "ExperimentalDetectronTopKROIs" => experimental_detectron_topk_rois::run,
        "ExperimentalDetectronPriorGridGenerator" => {
            experimental_detectron_prior_grid_generator::run
        }
        "ExperimentalDetectronROIFeatureExtractor" => {
            experimental_detectron_roi_feature_extractor::run
        }
        "DeformablePSROIPooling" => deformable_psroi_pooling::run,
        "ROIAlign" => roi_align::run,
        "ROIAlignRotated" => roi_align_rotated::run,
        "GridSample" => grid_sample::run,
        "FakeQuantize" => fake_quantize::run,
        "FakeConvert" => fake_convert::run,
        "BatchNormInference" => batch_norm_inference::run,
        "GroupNormalization" => group_normalization::run,
        "Interpolate" => interpolate::run,
        "AdaptiveAvgPool" => adaptive_pool::run_avg,
        "AdaptiveMaxPool" => adaptive_pool::run_max,
        "Convolution" => convolution::run,
        "GroupConvolution" => convolution::run_group,
        "ConvolutionBackpropData" => convolution_backprop_data::run,
        "GroupConvolutionBackpropData" => convolution_backprop_data::run_group,
        "DeformableConvolution" => deformable_convolution::run,
        "BinaryConvolution" => binary_convolution::run,
        "CTCLoss" => ctc_loss::run,
        "NV12toRGB" => convert_color::nv12_to_rgb,
        "RGBtoNV12" => convert_color_to_nv12::rgb_to_nv12,
        "BGRtoNV12" => convert_color_to_nv12::bgr_to_nv12,
        "NV12toBGR" => convert_color::nv12_to_bgr,
        "I420toRGB" => convert_color::i420_to_rgb,
        "I420toBGR" => convert_color::i420_to_bgr,
        "RNNCell" => rnn::rnn_cell,
        "GRUCell" => rnn::gru_cell,
        "LSTMCell" => rnn::lstm_cell,
        "RNNSequence" => rnn::rnn_sequence,
        "GRUSequence" => rnn::gru_sequence,
        "LSTMSequence" => rnn::lstm_sequence,
        _ => return None,
    })
}

/// Every op type with a kernel (besides Parameter, which the executor binds).
pub const OPS: &[&str] = &[
    "Parameter",
    "Const",
    "Result",
    "Select",
    "Reshape",
    "Slice",
    "SliceScatter",
    "Compress",
    "Extract",
    "Col2Im",
    "ExtractImagePatches",
    "Add",
    "Subtract",
    "Multiply",
    "Divide",
    "Maximum",
    "Minimum",
    "Equal",
    "NotEqual",
    "Less",
    "LessEqual",
    "Greater",
    "GreaterEqual",
    "LogicalAnd",
    "LogicalOr",
    "LogicalXor",
    "Xor",
    "ReLU",
    "Abs",
    "Negative",
    "Sigmoid",
    "Tanh",
    "Exp",
    "Sqrt",
    "LogicalNot",
    "Convert",
    "Concat",
    "Transpose",
    "TopK",
    "Identity",
    "CumSum",
    "Roll",
    "DFT",
    "IDFT",
    "RDFT",
    "IRDFT",
    "STFT",
    "ISTFT",
    "Gather",
    "GatherElements",
    "GatherND",
    "ScatterUpdate",
    "ScatterNDUpdate",
    "ScatterElementsUpdate",
    "ShapeOf",
    "Squeeze",
    "Unsqueeze",
    "MatMul",
    "Einsum",
    "CTCGreedyDecoder",
    "CTCGreedyDecoderSeqLen",
    "GatherTree",
    "EmbeddingBagOffsetsSum",
    "EmbeddingBagOffsets",
    "EmbeddingBagPackedSum",
    "EmbeddingBagPacked",
    "EmbeddingSegmentsSum",
    "ScaledDotProductAttention",
    "SoftMax",
    "LogSoftmax",
    "StridedSlice",
    "SparseFillEmptyRows",
    "Split",
    "VariadicSplit",
    "ReduceSum",
    "ReduceProd",
    "ReduceMax",
    "ReduceMin",
    "ReduceMean",
    "ReduceL1",
    "ReduceL2",
    "ReduceLogicalAnd",
    "ReduceLogicalOr",
    "Tile",
    "Pad",
    "Range",
    "RandomUniform",
    "Multinomial",
    "Unique",
    "StringTensorPack",
    "StringTensorUnpack",
    "ReadValue",
    "Assign",
    "Eye",
    "Inverse",
    "OneHot",
    "Reverse",
    "ReverseSequence",
    "BatchToSpace",
    "SpaceToBatch",
    "Bucketize",
    "SearchSorted",
    "SegmentMax",
    "Broadcast",
    "NonMaxSuppression",
    "MatrixNms",
    "MulticlassNms",
    "NMSRotated",
    "DetectionOutput",
    "Proposal",
    "GenerateProposals",
    "ExperimentalDetectronDetectionOutput",
    "ExperimentalDetectronGenerateProposalsSingleImage",
    "NonZero",
    "FloorMod",
    "Mod",
    "Power",
    "SquaredDifference",
    "BitwiseAnd",
    "BitwiseOr",
    "BitwiseXor",
    "BitwiseLeftShift",
    "BitwiseRightShift",
    "BitwiseNot",
    "Log",
    "Erf",
    "ErfInv",
    "GroupedMatMul",
    "Floor",
    "Ceiling",
    "Round",
    "Sign",
    "Sin",
    "Cos",
    "Tan",
    "Asin",
    "Acos",
    "Atan",
    "Sinh",
    "Cosh",
    "Asinh",
    "Acosh",
    "Atanh",
    "Clamp",
    "Gelu",
    "HSwish",
    "HSigmoid",
    "HardSigmoid",
    "Swish",
    "Mish",
    "SoftPlus",
    "Elu",
    "PReLU",
    "Selu",
    "SoftSign",
    "IsNaN",
    "IsInf",
    "IsFinite",
    "ConvertLike",
    "ConvertPromoteTypes",
    "MaxPool",
    "AvgPool",
    "MVN",
    "DepthToSpace",
    "SpaceToDepth",
    "ShuffleChannels",
    "NormalizeL2",
    "LRN",
    "GRN",
    "ReorgYolo",
    "PriorBox",
    "PriorBoxClustered",
    "RegionYolo",
    "ROIPooling",
    "PSROIPooling",
    "ExperimentalDetectronTopKROIs",
    "ExperimentalDetectronPriorGridGenerator",
    "ExperimentalDetectronROIFeatureExtractor",
    "DeformablePSROIPooling",
    "ROIAlign",
    "ROIAlignRotated",
    "GridSample",
    "FakeQuantize",
    "FakeConvert",
    "BatchNormInference",
    "GroupNormalization",
    "Interpolate",
    "AdaptiveAvgPool",
    "AdaptiveMaxPool",
    "Convolution",
    "GroupConvolution",
    "ConvolutionBackpropData",
    "GroupConvolutionBackpropData",
    "DeformableConvolution",
    "BinaryConvolution",
    "CTCLoss",
    "NV12toRGB",
    "RGBtoNV12",
    "BGRtoNV12",
    "NV12toBGR",
    "I420toRGB",
    "I420toBGR",
    "RNNCell",
    "GRUCell",
    "LSTMCell",
    "RNNSequence",
    "GRUSequence",
    "LSTMSequence",
    "If",
    "Loop",
    "TensorIterator",
];

/// A new tensor of `shape` reading `from` in a strided pattern (see
/// [`copy_strided`](crate::broadcast::copy_strided)); raw bytes, any type.
pub(crate) fn strided(
    from: &Tensor,
    shape: Vec<usize>,
    base: isize,
    strides: &[isize],
) -> KResult<Tensor> {
    let width = element_width(from.element_type)?;
    crate::tensor::byte_size(from.element_type, &shape)?;
    let bytes = crate::broadcast::copy_strided(from.bytes(), width, &shape, base, strides)
        .ok_or_else(|| {
            KernelError::from(format!(
                "internal: the reads of an output of {shape:?} fall outside the input {:?}",
                from.shape
            ))
        })?;
    Ok(Tensor::from_bytes(from.element_type, shape, bytes)?)
}

/// A new tensor of `shape` made of slices of `slice` contiguous elements of
/// `from`: output slice `r` is the input slice starting at element
/// `start_of(r)`. Raw bytes, any type; in parallel when large.
pub(crate) fn copy_slices(
    from: &Tensor,
    shape: Vec<usize>,
    slice: usize,
    start_of: impl Fn(usize) -> usize + Sync,
) -> KResult<Tensor> {
    let width = element_width(from.element_type)?;
    let size = crate::tensor::byte_size(from.element_type, &shape)?;
    let slice_bytes = slice * width;
    let src = from.bytes();
    let outside = AtomicBool::new(false);
    let bytes = crate::parallel::filled(size, slice_bytes, |first, chunk| {
        for (r, dst) in (first..).zip(chunk.chunks_exact_mut(slice_bytes)) {
            let at = start_of(r).saturating_mul(width);
            match src.get(at..at.saturating_add(slice_bytes)) {
                Some(s) => dst.copy_from_slice(s),
                None => outside.store(true, Ordering::Relaxed),
            }
        }
    });
    if outside.into_inner() {
        return Err(KernelError::from(format!(
            "internal: a slice of an output of {shape:?} falls outside the input {:?}",
            from.shape
        )));
    }
    Ok(Tensor::from_bytes(from.element_type, shape, bytes)?)
}

/// A new tensor of `shape` whose element `k` is element `src[k]` of
/// `from` (raw bytes: works for every element type).
pub(crate) fn gather_elements(
    from: &Tensor,
    shape: Vec<usize>,
    mut fill: impl FnMut(&mut dyn FnMut(usize)),
) -> KResult<Tensor> {
    let width = element_width(from.element_type)?;
    let size = crate::tensor::byte_size(from.element_type, &shape)?;
    let mut out = Vec::with_capacity(size);
    let src = from.bytes();
    let mut bad = false;
    fill(&mut |k| match src.get(k * width..k * width + width) {
        Some(e) => out.extend_from_slice(e),
        None => bad = true,
    });
    if bad || out.len() != size {
        return Err(KernelError::from(format!(
            "internal: element indices do not fill the output {shape:?}"
        )));
    }
    Ok(Tensor::from_bytes(from.element_type, shape, out)?)
}

/// Maps a possibly negative axis into `0..rank`.
pub(crate) fn norm_axis(axis: i64, rank: usize) -> KResult<usize> {
    let r = rank as i64;
    let a = if axis < 0 { axis + r } else { axis };
    if (0..r).contains(&a) {
        Ok(a as usize)
    } else {
        Err(format!("axis {axis} is out of range for rank {rank}").into())
    }
}

/// Arithmetic on one element type. Integers wrap (as OpenVINO's CPU
/// plugin); floats follow IEEE (NaN propagates through max/min too).
pub(crate) trait Num: Element + PartialOrd {
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    /// `None`: integer division by zero.
    fn div(self, o: Self, python: bool) -> Option<Self>;
    fn is_nan(self) -> bool;
    fn zero() -> Self;
    fn abs(self) -> Self;
    fn neg(self) -> Self;
    /// A real function, for floating-point types only.
    fn real(self, f: fn(f64) -> f64) -> Option<Self>;
    /// The remainder with the sign of the dividend (C `fmod`/`%`), or of the
    /// divisor when `floor`; `None`: integer division by zero.
    fn rem(self, o: Self, floor: bool) -> Option<Self>;
    /// `self` to the power `o` (integers: wrapping, negative exponents
    /// truncate toward zero; `None` for 0 to a negative power).
    fn pow(self, o: Self) -> Option<Self>;
}

macro_rules! num_int {
    ($($t:ty),*) => {$(
        impl Num for $t {
            fn add(self, o: Self) -> Self { self.wrapping_add(o) }
            fn sub(self, o: Self) -> Self { self.wrapping_sub(o) }
            fn mul(self, o: Self) -> Self { self.wrapping_mul(o) }
            fn div(self, o: Self, python: bool) -> Option<Self> {
                if o == 0 { return None; }
                let q = self.wrapping_div(o);
                #[allow(unused_comparisons)]
                let floor = python && (self.wrapping_rem(o) != 0) && ((self < 0) != (o < 0));
                Some(if floor { q.wrapping_sub(1) } else { q })
            }
            fn is_nan(self) -> bool { false }
            fn zero() -> Self { 0 }
            #[allow(unused_comparisons)]
            fn abs(self) -> Self { if self < 0 { (0 as $t).wrapping_sub(self) } else { self } }
            fn neg(self) -> Self { (0 as $t).wrapping_sub(self) }
            fn real(self, _: fn(f64) -> f64) -> Option<Self> { None }
            #[allow(unused_comparisons)]
            fn rem(self, o: Self, floor: bool) -> Option<Self> {
                if o == 0 { return None; }
                let r = self.wrapping_rem(o);
                Some(if floor && r != 0 && ((r < 0) != (o < 0)) { r.wrapping_add(o) } else { r })
            }
            #[allow(unused_comparisons)]
            fn pow(self, o: Self) -> Option<Self> {
                if o < 0 {
                    // |base| > 1 gives a fraction that truncates to 0.
                    return match self as i128 {
                        0 => None,
                        1 => Some(self),
                        -1 => Some(if o.wrapping_rem(2) == 0 { (0 as $t).wrapping_sub(self) } else { self }),
                        _ => Some(0),
                    };
                }
                let (mut base, mut e, mut acc) = (self, o as u64, 1 as $t);
                while e > 0 {
                    if e & 1 == 1 { acc = acc.wrapping_mul(base); }
                    base = base.wrapping_mul(base);
                    e >>= 1;
                }
                Some(acc)
            }
        }
    )*};
}
num_int!(i8, i16, i32, i64, u8, u16, u32, u64);

macro_rules! num_float {
    ($t:ty, $to:expr, $from:expr) => {
        impl Num for $t {
            fn add(self, o: Self) -> Self {
                $from($to(self) + $to(o))
            }
            fn sub(self, o: Self) -> Self {
                $from($to(self) - $to(o))
            }
            fn mul(self, o: Self) -> Self {
                $from($to(self) * $to(o))
            }
            fn div(self, o: Self, _: bool) -> Option<Self> {
                Some($from($to(self) / $to(o)))
            }
            fn is_nan(self) -> bool {
                $to(self).is_nan()
            }
            fn zero() -> Self {
                $from(0.0)
            }
            fn abs(self) -> Self {
                $from($to(self).abs())
            }
            fn neg(self) -> Self {
                $from(-$to(self))
            }
            fn real(self, f: fn(f64) -> f64) -> Option<Self> {
                Some($from(f($to(self) as f64) as _))
            }
            fn rem(self, o: Self, floor: bool) -> Option<Self> {
                let (x, y) = ($to(self), $to(o));
                let mut r = x % y;
                if floor && r != 0.0 && ((r < 0.0) != (y < 0.0)) {
                    r += y;
                }
                Some($from(r))
            }
            fn pow(self, o: Self) -> Option<Self> {
                Some($from($to(self).powf($to(o))))
            }
        }
    };
}
num_float!(f32, |x: f32| x, |x: f32| x);
num_float!(f64, |x: f64| x, |x: f64| x);
num_float!(f16, |x: f16| x.to_f32(), f16::from_f32);
num_float!(bf16, |x: bf16| x.to_f32(), bf16::from_f32);

/// Runs `$body` with `$T` the Rust type of an integer element type, else
/// evaluates `$else`.
macro_rules! with_int {
    ($et:expr, $T:ident => $body:expr, else $other:expr) => {{
        use ir::ElementType as E;
        match $et {
            E::I8 => {
                type $T = i8;
                $body
            }
            E::I16 => {
                type $T = i16;
                $body
            }
            E::I32 => {
                type $T = i32;
                $body
            }
            E::I64 => {
                type $T = i64;
                $body
            }
            E::U8 => {
                type $T = u8;
                $body
            }
            E::U16 => {
                type $T = u16;
                $body
            }
            E::U32 => {
                type $T = u32;
                $body
            }
            E::U64 => {
                type $T = u64;
                $body
            }
            _ => $other,
        }
    }};
}
pub(crate) use with_int;

/// Runs `$body` with `$T` the Rust type of a numeric (non-boolean)
/// element type, else evaluates `$else`.
macro_rules! with_num {
    ($et:expr, $T:ident => $body:expr, else $other:expr) => {{
        use ir::ElementType as E;
        match $et {
            E::F32 => {
                type $T = f32;
                $body
            }
            E::F64 => {
                type $T = f64;
                $body
            }
            E::F16 => {
                type $T = half::f16;
                $body
            }
            E::BF16 => {
                type $T = half::bf16;
                $body
            }
            integer => $crate::kernels::with_int!(integer, $T => $body, else $other),
        }
    }};
}
pub(crate) use with_num;

/// An error for an element type a kernel does not handle.
pub(crate) fn unsupported(what: &str, t: ElementType) -> KernelError {
    KernelError::from(format!("{what} is not defined for element type {t}"))
}

pub(crate) fn to_exec(e: KernelError, node: &Node) -> ExecError {
    match e {
        KernelError::Exec(e) => e,
        KernelError::Message(message) => ExecError::Kernel {
            layer: node.name.clone(),
            op: node.op_type.name.clone(),
            message,
        },
    }
}

/// The elements of a numeric tensor as `f64` (integers converted).
pub(crate) fn to_f64s(t: &Tensor) -> KResult<Vec<f64>> {
    use convert::{Conv, Val};
    with_num!(t.element_type, T => Ok(t
        .bytes()
        .chunks_exact(T::SIZE)
        .map(|c| match T::read(c).to_val() {
            Val::F(f) => f,
            Val::I(i) => i as f64,
        })
        .collect()), else Err(unsupported("a numeric op", t.element_type)))
}

/// The elements of an integer tensor as `i128`.
pub(crate) fn to_i128s(t: &Tensor) -> KResult<Vec<i128>> {
    use convert::{Conv, Val};
    if t.element_type.is_real() {
        return Err(unsupported("an integer op", t.element_type));
    }
    with_num!(t.element_type, T => Ok(t
        .bytes()
        .chunks_exact(T::SIZE)
        .map(|c| match T::read(c).to_val() {
            Val::F(f) => f as i128,
            Val::I(i) => i,
        })
        .collect()), else Err(unsupported("an integer op", t.element_type)))
}

/// A tensor of a numeric type from `f64` values (rounded to nearest; to
/// integers: truncated and saturated, as Convert).
pub(crate) fn from_f64s(et: ElementType, shape: Vec<usize>, values: &[f64]) -> KResult<Tensor> {
    use convert::{Conv, Val};
    with_num!(et, T => {
        let mut out = vec![0u8; crate::tensor::byte_size(et, &shape)?];
        if out.len() != values.len() * T::SIZE {
            return Err("internal: the values do not fill the output".into());
        }
        for (o, &v) in out.chunks_exact_mut(T::SIZE).zip(values) {
            T::from_val(Val::F(v)).write(o);
        }
        Ok(Tensor::from_bytes(et, shape, out)?)
    }, else Err(unsupported("a numeric op", et)))
}

/// A tensor of an integer type from `i128` values (wrapping, as C++).
pub(crate) fn from_i128s(et: ElementType, shape: Vec<usize>, values: &[i128]) -> KResult<Tensor> {
    use convert::{Conv, Val};
    with_num!(et, T => {
        let mut out = vec![0u8; crate::tensor::byte_size(et, &shape)?];
        if out.len() != values.len() * T::SIZE {
            return Err("internal: the values do not fill the output".into());
        }
        for (o, &v) in out.chunks_exact_mut(T::SIZE).zip(values) {
            T::from_val(Val::I(v)).write(o);
        }
        Ok(Tensor::from_bytes(et, shape, out)?)
    }, else Err(unsupported("a numeric op", et)))
}

/// Calls `f` with every multi-index of `shape` in row-major order.
pub(crate) fn for_each_index(shape: &[usize], mut f: impl FnMut(&[usize])) {
    if shape.contains(&0) {
        return;
    }
    let mut idx = vec![0usize; shape.len()];
    loop {
        f(&idx);
        let mut axis = shape.len();
        loop {
            if axis == 0 {
                return;
            }
            axis -= 1;
            idx[axis] += 1;
            if idx[axis] < shape[axis] {
                break;
            }
            idx[axis] = 0;
        }
    }
}

/// A new tensor of `shape` (raw bytes) whose element at each multi-index is
/// element `f(index)` of `from`, or `fill` when `f` gives `None`.
pub(crate) fn gather_indexed(
    from: &Tensor,
    shape: Vec<usize>,
    fill: Option<&[u8]>,
    mut f: impl FnMut(&[usize]) -> Option<usize>,
) -> KResult<Tensor> {
    let width = element_width(from.element_type)?;
    let size = crate::tensor::byte_size(from.element_type, &shape)?;
    let mut out = Vec::with_capacity(size);
    let src = from.bytes();
    let mut bad = false;
    for_each_index(&shape, |idx| match f(idx) {
        Some(k) => match src.get(k * width..k * width + width) {
            Some(e) => out.extend_from_slice(e),
            None => bad = true,
        },
        None => match fill {
            Some(v) if v.len() == width => out.extend_from_slice(v),
            _ => bad = true,
        },
    });
    if bad || out.len() != size {
        return Err(KernelError::from(format!(
            "internal: element indices do not fill the output {shape:?}"
        )));
    }
    Ok(Tensor::from_bytes(from.element_type, shape, out)?)
}
