"""A layperson's words for kinds of people, for pay and for acts of money, and the words a
statute states them in (配偶 for 老公, 未成年人 for 初中生, 工资 for 全勤奖, 所得 for 挣): read by the answerability check
where the question pins such a word (config ``answerability_lay_words``, ``answerability_lay_acts``)."""

from __future__ import annotations

# a kind of person or a family role as people name it (the tagger calls several of these a
# person's name: 老公, 宝宝, 初中生, 岳父, 保姆) → the statute's general words for it. A brand, a
# company, a place or a person's name is never here: those pin the question.
_SPOUSE = ("配偶", "夫妻", "婚姻", "丈夫", "妻子", "男方", "女方")
_CHILD = ("子女", "儿童", "婴儿", "婴幼儿", "未成年人", "新生儿", "孩子")
_PUPIL = ("未成年人", "未成年", "学生", "中小学生", "青少年", "儿童", "受教育者", "未满十八周岁", "未满十六周岁")
_ELDER = ("老年人", "父母", "近亲属", "赡养")
_IN_LAW = ("父母", "近亲属", "公婆", "岳父母", "姻亲", "配偶")
_HELP = ("家政", "家庭服务", "劳动者", "雇员", "服务人员")
PERSONS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("老公", "丈夫", "老伴", "前夫", "未婚夫"), _SPOUSE),
    **dict.fromkeys(("老婆", "媳妇", "妻子", "前妻", "未婚妻"), _SPOUSE),
    **dict.fromkeys(("宝宝", "婴儿", "小孩", "孩子", "儿子", "女儿", "闺女", "小宝宝", "新生儿"), _CHILD),
    **dict.fromkeys(("初中生", "高中生", "小学生", "中学生", "青少年", "中专生", "职高生"), _PUPIL),
    **dict.fromkeys(("孙子", "孙女", "外孙", "外孙女"), ("孙子女", "外孙子女", "近亲属", "晚辈")),
    **dict.fromkeys(("老太太", "老头", "老爹", "老人", "老大爷", "老奶奶", "阿婆"), _ELDER),
    **dict.fromkeys(("宝妈", "孕妈"), ("母亲", "妇女", "女职工", "孕期", "哺乳期", "父母")),
    "曾孙": ("孙子女", "近亲属", "晚辈", "直系"),
    "伯母": ("亲属", "近亲属"),
    "孤儿": ("孤儿", "未成年人", "监护"),
    "博士生": ("学生", "研究生", "受教育者"),
    "老总": ("负责人", "法定代表人", "经理"),
    **dict.fromkeys(("岳父", "岳母", "公公", "婆婆", "老丈人", "丈母娘", "小姑子", "大伯", "嫂子", "儿媳"), _IN_LAW),
    **dict.fromkeys(("养父", "养母"), ("养父母", "收养", "父母")),
    **dict.fromkeys(("继父", "继母"), ("继父母", "父母")),
    **dict.fromkeys(("保姆", "月嫂", "钟点工", "小时工"), _HELP),
    **dict.fromkeys(("顾客", "买家"), ("消费者", "顾客", "买受人")),
    "应届生": ("毕业生", "高校毕业生"),
    "保安": ("保安员", "保安"),
    # pay and money as people name them (the tagger calls 养老金, 安置费, 全勤奖, 红利 names)
    **dict.fromkeys(("养老金", "养老钱", "退休金", "退休工资"), ("基本养老金", "养老保险", "养老金", "退休")),
    **dict.fromkeys(("失业金", "失业钱"), ("失业保险金", "失业保险")),
    **dict.fromkeys(("全勤奖", "年终奖", "奖金", "工钱", "薪水", "底薪", "月薪", "年薪"), ("工资", "劳动报酬", "奖金", "薪金")),
    **dict.fromkeys(("红利", "分红"), ("分红", "利润", "股利", "红利", "分配")),
    **dict.fromkeys(("安置费", "拆迁款"), ("安置", "补偿", "补助费")),
}

# the act a sum is asked of in everyday words (挣多少钱, 要花多少, 掏多少) → the first characters
# of the words a statute states it by (所得, 收入, 工资; 费用, 支付, 承担; 缴纳)
ACTS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys("挣赚", ("所得", "收入", "工资", "报酬", "薪金", "收益")),
    **dict.fromkeys("花掏出", ("费用", "支付", "承担", "负担")),
    "交": ("缴纳", "缴", "交纳"),
    "存": ("缴存", "存入", "储存"),
    "拿": ("领取", "取得", "获得", "支付"),
    "给": ("支付", "给付", "发放"),
}


def law_words(word: str) -> tuple[str, ...]:
    """The statute's words for ``word``, a kind of person, a family role or a kind of pay as
    people name it (老公 → 配偶, 夫妻…; 初中生 → 未成年人, 学生…; 全勤奖 → 工资, 劳动报酬…); empty for
    any other word, a name above all."""
    return PERSONS.get(word.strip(), ())


def act_words(act: str) -> tuple[str, ...]:
    """The statute's words for ``act``, a verb of money as people say it (挣 → 所得, 收入, 工资;
    花/掏 → 费用, 支付; 交 → 缴纳); empty for any other act (罚, 赔 are the statute's own)."""
    return ACTS.get(act.strip(), ())
